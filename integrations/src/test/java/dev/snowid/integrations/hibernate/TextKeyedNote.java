package dev.snowid.integrations.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** A mapping mistake: a Snowflake ID is a long, not text. */
@Entity
public class TextKeyedNote {

    @Id
    @SnowidId
    private String id;

    protected TextKeyedNote() {
    }
}

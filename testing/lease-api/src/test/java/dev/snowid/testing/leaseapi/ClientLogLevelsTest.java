package dev.snowid.testing.leaseapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.client.SnowidClient;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client's default log, java.util.logging, against the real lease API: a client that leases,
 * issues and releases logs one record at INFO or above (its lease at start-up), its audit lines
 * at FINE, below what logging shows by default; {@code auditAtInfo(true)} raises them to INFO.
 */
@ExtendWith(DynamoDbEngine.class)
class ClientLogLevelsTest {

    private final Logger client = Logger.getLogger("dev.snowid.client");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler recorder = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level levelBefore;

    @BeforeEach
    void record() {
        levelBefore = client.getLevel();
        client.setLevel(Level.ALL); // every record reaches the handler, which tells them by level
        client.addHandler(recorder);
    }

    @AfterEach
    void stopRecording() {
        client.removeHandler(recorder);
        client.setLevel(levelBefore);
    }

    @Test
    void byDefaultOneRecordAtInfoAndTheAuditLinesBelowIt(TestTable table) {
        try (LeaseApi api = LeaseApi.start(table, LeaseApi.DATACENTER, 2)) {
            try (SnowidClient ids = SnowidClient.builder().leaseUrl(api.url()).secret(LeaseApi.SECRET).holder("quiet").build()) {
                ids.nextId();
            }
        }
        List<String> shown = atOrAbove(Level.INFO);
        assertEquals(1, shown.size(), () -> "one record at INFO or above: " + shown);
        assertTrue(shown.get(0).startsWith("INFO dev.snowid.client leasing from "), shown::toString);
        List<String> audit = records.stream().filter(r -> r.getLoggerName().equals("dev.snowid.client.audit"))
                .map(r -> r.getLevel().getName()).collect(Collectors.toList());
        assertEquals(List.of("FINE", "FINE"), audit, "granted and released, below INFO");
    }

    @Test
    void auditAtInfoRaisesTheAuditLinesToInfo(TestTable table) {
        try (LeaseApi api = LeaseApi.start(table, LeaseApi.DATACENTER, 2)) {
            try (SnowidClient ids = SnowidClient.builder().leaseUrl(api.url()).secret(LeaseApi.SECRET).holder("audited")
                    .auditAtInfo(true).build()) {
                ids.nextId();
            }
        }
        List<String> audit = atOrAbove(Level.INFO).stream().filter(line -> line.startsWith("INFO dev.snowid.client.audit {"))
                .collect(Collectors.toList());
        assertEquals(2, audit.size(), () -> "granted and released at INFO: " + records);
        assertTrue(audit.get(0).contains("\"event\":\"granted\"") && audit.get(1).contains("\"event\":\"released\""), audit::toString);
    }

    private List<String> atOrAbove(Level level) {
        return records.stream().filter(r -> r.getLevel().intValue() >= level.intValue())
                .map(r -> r.getLevel().getName() + " " + r.getLoggerName() + " " + r.getMessage()).collect(Collectors.toList());
    }
}

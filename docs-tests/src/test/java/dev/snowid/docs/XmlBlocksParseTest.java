package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

/** Every ```xml block of README.md and docs/ is well-formed XML (a fragment of elements is fine). */
class XmlBlocksParseTest {

    @Test
    void everyXmlBlockParses() throws Exception {
        List<DocBlock> blocks = DocBlock.all("xml");
        assertFalse(blocks.isEmpty(), "no ```xml blocks found under " + DocBlock.root());
        List<String> problems = new ArrayList<>();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        for (DocBlock block : blocks) {
            boolean whole = block.text().stripLeading().startsWith("<?xml");
            // A fragment gets a root of its own, one line, so that line numbers stay the block's.
            String text = whole ? block.text() : "<fragment>" + block.text() + "</fragment>";
            try {
                factory.newDocumentBuilder().parse(new InputSource(new StringReader(text)));
            } catch (SAXParseException e) {
                problems.add(DocBlock.where(block.doc(), block.bodyLine(e.getLineNumber() - 1)) + ": not well-formed XML: "
                        + e.getMessage());
            }
        }
        assertTrue(problems.isEmpty(), () -> String.join("\n", problems));
    }
}

package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.snowid.local.LocalSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every ```console block of README.md and docs/ is a session against the local runner, and runs
 * here against a real one (the function's handler on a real DynamoDB-compatible engine):
 * lines starting with {@code $ } are commands, the lines after one are what it prints. The
 * commands may be {@code curl} (its answer must have the shape shown: the same JSON fields, of
 * the same types, and the same status where {@code -w ' %{http_code}'} prints it after the body),
 * {@code export}, and the runner's own start command, for which this test's
 * runner stands in. Other sessions belong in ```sh blocks, which are not run.
 */
class ConsoleBlocksRunTest {

    /** What a doc's {@code export SNOWID_LEASE_SECRET=…} sets; the runner here is given the same. */
    static final String DOC_SECRET = "s0lc0TN3eQAOP8nxmiRoqz8FcJRIDHigLJLs0wz38R4=";
    private static final String DOC_BASE = "http://localhost:8080";
    private static final String END = "@@snowid-doc-command-end@@";

    private static LeaseApi runner;

    @BeforeAll
    static void startRunner() {
        runner = LeaseApi.startAsTheReadmeDoes(DynamoDbEngine.newTable("docs"), DOC_SECRET);
    }

    @AfterAll
    static void stopRunner() {
        if (runner != null) {
            runner.close();
        }
    }

    @Test
    void everyConsoleBlockRunsAgainstALocalRunnerAndAnswersInTheShapeShown() throws Exception {
        List<DocBlock> blocks = DocBlock.all("console");
        assertFalse(blocks.isEmpty(), "no ```console blocks found under " + DocBlock.root());
        List<String> problems = new ArrayList<>();
        int curls = 0;
        for (DocBlock block : blocks) {
            curls += run(block, problems);
        }
        assertTrue(curls > 0, "no `$ curl` command in any ```console block");
        assertTrue(problems.isEmpty(), () -> problems.size() + " console block problem(s):\n" + String.join("\n", problems));
    }

    /** Runs one block's commands in one shell, so that variables carry over; returns how many curls ran. */
    private int run(DocBlock block, List<String> problems) throws IOException, InterruptedException {
        List<String> body = block.text().lines().toList();
        List<Integer> commandLines = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        StringBuilder script = new StringBuilder("set -u\n");
        for (int i = 0; i < body.size(); i++) {
            String line = body.get(i);
            if (!line.startsWith("$ ")) {
                continue;
            }
            String command = line.substring(2).strip();
            StringBuilder shown = new StringBuilder();
            for (int j = i + 1; j < body.size() && !body.get(j).startsWith("$ "); j++) {
                shown.append(body.get(j)).append('\n');
            }
            String where = DocBlock.where(block.doc(), block.bodyLine(i));
            if (command.equals("local/scripts/run-local.sh") || command.startsWith("java -jar local/target/snowid-local.jar")) {
                continue; // this test's runner stands in
            } else if (command.startsWith("export ")) {
                script.append(command).append('\n');
            } else if (command.startsWith("curl ")) {
                commandLines.add(i);
                expected.add(shown.toString());
                script.append(command.replace(DOC_BASE, runner.baseUri().toString())).append("\necho\necho ").append(END).append('\n');
            } else {
                problems.add(where + ": `" + command + "` is not a command this test can run against the local runner"
                        + " (curl, export, local/scripts/run-local.sh): show it in a ```sh block instead");
            }
        }
        if (commandLines.isEmpty()) {
            return 0;
        }
        ProcessBuilder shell = new ProcessBuilder("bash", "-c", script.toString()).redirectErrorStream(true);
        shell.environment().remove(LocalSettings.LOCAL_LEASE_SECRET); // only what the block exports
        Process process = shell.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            problems.add(block.where() + ": the block's commands did not finish within 60 s");
            return commandLines.size();
        }
        String[] answers = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split(END + "\n?", -1);
        for (int k = 0; k < commandLines.size(); k++) {
            String where = DocBlock.where(block.doc(), block.bodyLine(commandLines.get(k)));
            String answer = k < answers.length ? answers[k].strip() : "";
            String shown = expected.get(k).strip();
            String shownShape = shapeAndStatus(shown);
            String answerShape = shapeAndStatus(answer);
            if (shown.isEmpty()) {
                problems.add(where + ": the doc shows no answer for this command");
            } else if (shownShape == null) {
                if (!answer.lines().findFirst().orElse("").equals(shown.lines().findFirst().orElse(""))) {
                    problems.add(where + ": answered «" + answer + "», the doc shows «" + shown + "»");
                }
            } else if (!shownShape.equals(answerShape)) {
                problems.add(where + ": answered «" + answer + "» (shape " + answerShape + "), the doc shows shape " + shownShape);
            }
        }
        return commandLines.size();
    }

    private static final java.util.regex.Pattern STATUS_AFTER = java.util.regex.Pattern.compile("(?s)(.*\\S)\\s+(\\d{3})");

    /** The shape of a JSON answer, with the HTTP status when one follows it; null when it is not JSON. */
    static String shapeAndStatus(String text) {
        java.util.regex.Matcher status = STATUS_AFTER.matcher(text);
        if (status.matches() && shape(status.group(1)) != null) {
            return shape(status.group(1)) + " status " + status.group(2);
        }
        return shape(text);
    }

    /** A JSON text's shape: its objects' field names and its values' types; null when it is not JSON. */
    static String shape(String text) {
        try (JsonParser json = new JsonFactory().createParser(text)) {
            if (json.nextToken() == null) {
                return null;
            }
            String shape = shape(json);
            return json.nextToken() == null ? shape : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static String shape(JsonParser json) throws IOException {
        JsonToken token = json.currentToken();
        switch (token) {
            case START_OBJECT: {
                StringBuilder fields = new StringBuilder("{");
                while (json.nextToken() == JsonToken.FIELD_NAME) {
                    String name = json.currentName();
                    json.nextToken();
                    fields.append(name).append(':').append(shape(json)).append(',');
                }
                return fields.append('}').toString();
            }
            case START_ARRAY: {
                // Arrays by their elements' shapes, however many there are.
                java.util.TreeSet<String> elements = new java.util.TreeSet<>();
                while (json.nextToken() != JsonToken.END_ARRAY) {
                    elements.add(shape(json));
                }
                return "[" + String.join("|", elements) + "]";
            }
            case VALUE_STRING:
                return "string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "boolean";
            default:
                return "null";
        }
    }
}

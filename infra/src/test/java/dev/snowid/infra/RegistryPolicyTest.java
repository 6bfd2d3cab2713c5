package dev.snowid.infra;

import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static dev.snowid.infra.Template.oneOrMany;
import static dev.snowid.infra.TemplateDriftTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.lambda.dynamodb.RegistrySchema;
import dev.snowid.region.Block;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The claim registry policy, as IAM would read it for each {@code Datacenters} value: a stack may
 * {@code UpdateItem} only its own block's item ({@code dynamodb:LeadingKeys} is that block's key,
 * {@link RegistrySchema#BLOCK}), and {@code Scan} stays table-wide in a statement of its own. moto
 * does not evaluate IAM conditions, so the statement's shape is what is checked here.
 */
class RegistryPolicyTest {

    private static final String LEADING_KEYS = "dynamodb:LeadingKeys";
    private static final String FOR_ALL_VALUES = "ForAllValues:StringEquals";

    private final Template template = Template.load();

    @Test
    void everyBlockMayUpdateOnlyItsOwnItemAndScanEveryOne() {
        List<Object> allowed = list(map(template.parameters().get("Datacenters")).get("AllowedValues"));
        assertEquals(Block.COUNT, allowed.size(), "one Datacenters value per block");
        for (Object datacenters : allowed) {
            assertEquals(List.of(), problems(template, String.valueOf(datacenters)), "Datacenters=" + datacenters);
        }
    }

    @Test
    void aWriteWithoutTheBlockConditionOrForAnotherBlockIsCaught() {
        Template unconditional = template.copy();
        writeStatement(unconditional).remove("Condition");
        assertMentions(problems(unconditional, "4-7"), "UpdateItem without the condition " + FOR_ALL_VALUES);

        Template shifted = template.copy();
        map(map(shifted.root().get("Mappings")).get("BlockKey")).put("4-7", Map.of("Key", "2"));
        assertMentions(problems(shifted, "4-7"), "[2], expected [1]");

        Template anyCondition = template.copy();
        writeStatement(anyCondition).put("Condition", Map.of("ForAnyValue:StringEquals", Map.of(LEADING_KEYS, List.of("1"))));
        assertMentions(problems(anyCondition, "4-7"), "UpdateItem without the condition " + FOR_ALL_VALUES);

        Template writesInScan = template.copy();
        list(scanStatement(writesInScan).get("Action")).add("dynamodb:UpdateItem");
        assertMentions(problems(writesInScan, "4-7"), "UpdateItem without the condition " + FOR_ALL_VALUES);
    }

    /** What is wrong with the registry policy of a stack deployed with {@code datacenters}. */
    static List<String> problems(Template template, String datacenters) {
        List<String> problems = new ArrayList<>();
        String key = Integer.toString(Block.parse(datacenters).index());
        boolean scans = false;
        for (Object item : statements(template)) {
            Map<String, Object> statement = map(item);
            List<Object> actions = oneOrMany(statement.get("Action"));
            if (actions.contains("dynamodb:Scan")) {
                scans = true;
                if (statement.containsKey("Condition")) {
                    problems.add("Scan is conditioned (" + statement.get("Condition") + "): a stack reads every block's claim");
                }
            }
            if (!actions.contains("dynamodb:UpdateItem")) {
                continue;
            }
            Object condition = statement.get("Condition") instanceof Map<?, ?> c ? c.get(FOR_ALL_VALUES) : null;
            Object leadingKeys = condition instanceof Map<?, ?> c ? c.get(LEADING_KEYS) : null;
            if (leadingKeys == null || map(statement.get("Condition")).size() != 1) {
                problems.add("UpdateItem without the condition " + FOR_ALL_VALUES + " on " + LEADING_KEYS + ": " + statement);
                continue;
            }
            List<String> keys = new ArrayList<>();
            oneOrMany(leadingKeys).forEach(k -> keys.add(resolve(template, k, datacenters)));
            if (!keys.equals(List.of(key))) {
                problems.add(LEADING_KEYS + " of UpdateItem for Datacenters=" + datacenters + " is " + keys + ", expected [" + key + "]");
            }
        }
        if (!scans) {
            problems.add("no statement grants Scan on the registry");
        }
        return problems;
    }

    private static List<Object> statements(Template template) {
        return list(map(template.properties("RegistryPolicy").get("PolicyDocument")).get("Statement"));
    }

    private static Map<String, Object> writeStatement(Template template) {
        return statementWith(template, "dynamodb:UpdateItem");
    }

    private static Map<String, Object> scanStatement(Template template) {
        return statementWith(template, "dynamodb:Scan");
    }

    private static Map<String, Object> statementWith(Template template, String action) {
        return statements(template).stream().map(Template::map).filter(s -> oneOrMany(s.get("Action")).contains(action)).findFirst()
                .orElseThrow();
    }

    /** A literal, or {@code Fn::FindInMap [map, Ref Datacenters, key]} against the template's Mappings. */
    private static String resolve(Template template, Object value, String datacenters) {
        if (!(value instanceof Map<?, ?> function)) {
            return String.valueOf(value);
        }
        List<Object> arguments = list(function.get("Fn::FindInMap"));
        assertEquals(Map.of("Ref", "Datacenters"), arguments.get(1), "the block key follows Datacenters");
        Object row = map(map(template.root().get("Mappings")).get(String.valueOf(arguments.get(0)))).get(datacenters);
        return row == null ? "<no row for " + datacenters + ">" : String.valueOf(map(row).get(String.valueOf(arguments.get(2))));
    }
}

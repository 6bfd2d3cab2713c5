package dev.snowid.cdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The SAM template this jar carries (infra/template.yaml, copied by the build), read for what it
 * says about its parameters: their defaults, their constraints and its {@code Rules}. The props
 * are checked against these before synthesis, so a value CloudFormation would refuse at deploy
 * time is refused at {@code build()} instead, with the template's own words; the rules stay in
 * the template, their one home (and CloudFormation checks them again).
 */
final class SnowidTemplate {

    /** The template's text, as the jar carries it. */
    static final String RESOURCE = "template.yaml";
    /** The function jar the template's CodeUri names. */
    static final String FUNCTION_JAR = "snowid-function.jar";

    private static final SnowidTemplate BUNDLED = new SnowidTemplate(text(RESOURCE));

    private final String text;
    private final Map<String, Object> parameters;
    private final Map<String, Object> rules;

    SnowidTemplate(String text) {
        this.text = text;
        Map<String, Object> template = map(new Yaml(new IntrinsicConstructor()).load(text));
        this.parameters = map(template.get("Parameters"));
        this.rules = map(template.getOrDefault("Rules", Map.of()));
    }

    static SnowidTemplate bundled() {
        return BUNDLED;
    }

    String text() {
        return text;
    }

    /** The names of the template's parameters, in its order. */
    List<String> parameterNames() {
        return List.copyOf(parameters.keySet());
    }

    /**
     * Every parameter's value: the one given, or the template's default.
     *
     * @throws IllegalArgumentException a value is missing, unknown or refused by the template: the message
     *         names the parameter and says what it allows (its ConstraintDescription, or its rule's words)
     */
    Map<String, String> resolve(Map<String, String> given) {
        List<String> problems = new ArrayList<>();
        given.keySet().stream().filter(name -> !parameters.containsKey(name))
                .forEach(name -> problems.add(name + " is not a parameter of the template"));
        Map<String, String> values = new LinkedHashMap<>();
        parameters.forEach((name, body) -> {
            Map<String, Object> declaration = map(body);
            String value = given.containsKey(name) ? given.get(name)
                    : declaration.containsKey("Default") ? String.valueOf(declaration.get("Default")) : null;
            if (value == null) {
                problems.add(name + " is required: " + declaration.get("Description"));
                return;
            }
            String refused = refusal(declaration, value);
            if (refused != null) {
                problems.add(name + " '" + value + "' is refused: " + refused);
            }
            values.put(name, value);
        });
        if (problems.isEmpty()) {
            rules.forEach((rule, body) -> {
                Map<String, Object> declaration = map(body);
                Object condition = declaration.get("RuleCondition");
                if (condition != null && !truth(condition, values, rule)) {
                    return;
                }
                for (Object item : list(declaration.get("Assertions"))) {
                    Map<String, Object> assertion = map(item);
                    if (!truth(assertion.get("Assert"), values, rule)) {
                        problems.add(rule + ": " + assertion.get("AssertDescription"));
                    }
                }
            });
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("snowid: " + String.join("; ", problems));
        }
        return values;
    }

    /**
     * A value as the template writes its parameter's default: a YAML number where the template has
     * numbers (cfn-lint compares the default with the AllowedValues as written), else a string.
     */
    Object asWritten(String parameter, String value) {
        Map<String, Object> declaration = map(parameters.get(parameter));
        Object example = declaration.containsKey("Default") ? declaration.get("Default")
                : declaration.containsKey("AllowedValues") ? list(declaration.get("AllowedValues")).get(0) : "";
        return example instanceof Number ? (Object) Long.valueOf(value) : value;
    }

    private static String refusal(Map<String, Object> declaration, String value) {
        Object allowed = declaration.get("AllowedValues");
        if (allowed != null && list(allowed).stream().map(String::valueOf).noneMatch(value::equals)) {
            return "allowed are " + list(allowed);
        }
        Object pattern = declaration.get("AllowedPattern");
        if (pattern != null && !Pattern.compile(String.valueOf(pattern)).matcher(value).matches()) {
            return "expected " + declaration.getOrDefault("ConstraintDescription", "a match of " + pattern);
        }
        if ("Number".equals(declaration.get("Type"))) {
            double number;
            try {
                number = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                return "expected a number";
            }
            Object min = declaration.get("MinValue");
            Object max = declaration.get("MaxValue");
            if (min != null && number < ((Number) min).doubleValue() || max != null && number > ((Number) max).doubleValue()) {
                return "expected " + min + " to " + max;
            }
        }
        return null;
    }

    // The functions CloudFormation allows in Rules; anything else fails here, never passes.
    private static boolean truth(Object expression, Map<String, String> values, String rule) {
        if (evaluate(expression, values, rule) instanceof Boolean b) {
            return b;
        }
        throw new IllegalStateException("rule " + rule + ": " + expression + " is not a condition");
    }

    private static Object evaluate(Object expression, Map<String, String> values, String rule) {
        if (expression instanceof List<?> items) {
            return items.stream().map(item -> evaluate(item, values, rule)).toList();
        }
        if (!(expression instanceof Map<?, ?> function) || function.size() != 1) {
            return String.valueOf(expression);
        }
        Map.Entry<?, ?> call = function.entrySet().iterator().next();
        Object argument = call.getValue();
        switch (String.valueOf(call.getKey())) {
            case "Ref":
                return values.get(String.valueOf(argument));
            case "Fn::Equals": {
                List<?> pair = list(evaluate(argument, values, rule));
                return pair.get(0).equals(pair.get(1));
            }
            case "Fn::Contains": {
                List<?> pair = list(evaluate(argument, values, rule));
                return list(pair.get(0)).contains(pair.get(1));
            }
            case "Fn::Not":
                return !truth(list(argument).get(0), values, rule);
            case "Fn::And":
                return list(argument).stream().allMatch(term -> truth(term, values, rule));
            case "Fn::Or":
                return list(argument).stream().anyMatch(term -> truth(term, values, rule));
            default:
                throw new IllegalStateException("rule " + rule + ": " + call.getKey() + " is not understood here");
        }
    }

    static String text(String resource) {
        try (InputStream in = SnowidTemplate.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("snowid-cdk's jar has no " + resource + ": it was built without it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    private static List<?> list(Object value) {
        return (List<?>) value;
    }

    /** Short intrinsic tags (!Ref x, !Equals [...]) as the long form CloudFormation uses. */
    private static final class IntrinsicConstructor extends SafeConstructor {

        IntrinsicConstructor() {
            super(new LoaderOptions());
        }

        @Override
        protected org.yaml.snakeyaml.constructor.Construct getConstructor(Node node) {
            String tag = node.getTag().getValue();
            if (!tag.startsWith("!")) {
                return super.getConstructor(node);
            }
            String function = tag.equals("!Ref") || tag.equals("!Condition") ? tag.substring(1) : "Fn::" + tag.substring(1);
            return new AbstractConstruct() {
                @Override
                public Object construct(Node tagged) {
                    Object content;
                    if (tagged instanceof ScalarNode scalar) {
                        content = constructScalar(scalar);
                    } else if (tagged instanceof SequenceNode sequence) {
                        content = constructSequence(sequence);
                    } else {
                        content = constructMapping((MappingNode) tagged);
                    }
                    return Map.of(function, content);
                }
            };
        }
    }
}

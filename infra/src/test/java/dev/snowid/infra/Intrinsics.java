package dev.snowid.infra;

import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the intrinsic functions in the parts of a template that the deploy test creates
 * itself (the resources moto's CloudFormation does not build): {@code Ref}, {@code Fn::GetAtt},
 * {@code Fn::Sub} (string form), {@code Fn::If}, {@code Fn::Equals}, {@code Fn::And},
 * {@code Fn::Or}, {@code Fn::Not}, {@code Condition}, {@code AWS::NoValue}. Any other function
 * fails loudly rather than passing through unresolved.
 *
 * @param values what {@code Ref X} and {@code Fn::GetAtt [X, A]} ("X.A") stand for: parameters,
 *        pseudo parameters, resources
 * @param conditions the template's Conditions section, evaluated when asked for
 */
record Intrinsics(Map<String, String> values, Map<String, Object> conditions) {

    private static final Object NO_VALUE = new Object();
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}!][^}]*)}");

    /** A copy of {@code node} with every function replaced by its value. */
    Object resolve(Object node) {
        Object resolved = resolveOrDrop(node);
        if (resolved == NO_VALUE) {
            throw new IllegalArgumentException("AWS::NoValue at the top of " + node);
        }
        return resolved;
    }

    String string(Object node) {
        return String.valueOf(resolve(node));
    }

    private Object resolveOrDrop(Object node) {
        if (node instanceof List<?> items) {
            List<Object> resolved = new ArrayList<>();
            for (Object item : items) {
                Object value = resolveOrDrop(item);
                if (value != NO_VALUE) {
                    resolved.add(value);
                }
            }
            return resolved;
        }
        if (!(node instanceof Map)) {
            return node;
        }
        Map<String, Object> map = map(node);
        if (map.size() == 1) {
            String key = map.keySet().iterator().next();
            Object argument = map.get(key);
            switch (key) {
                case "Ref":
                    return "AWS::NoValue".equals(argument) ? NO_VALUE : value((String) argument);
                case "Fn::GetAtt":
                    return value(list(argument).get(0) + "." + list(argument).get(1));
                case "Fn::Sub":
                    return substitute((String) argument);
                case "Fn::If":
                    List<Object> branches = list(argument);
                    return resolveOrDrop(condition((String) branches.get(0)) ? branches.get(1) : branches.get(2));
                case "Fn::Equals":
                    List<Object> sides = list(argument);
                    return string(sides.get(0)).equals(string(sides.get(1)));
                case "Fn::And":
                    return list(argument).stream().allMatch(operand -> (Boolean) resolve(operand));
                case "Fn::Or":
                    return list(argument).stream().anyMatch(operand -> (Boolean) resolve(operand));
                case "Fn::Not":
                    return !(Boolean) resolve(list(argument).get(0));
                case "Condition":
                    return condition((String) argument);
                default:
                    if (key.startsWith("Fn::")) {
                        throw new IllegalArgumentException("the deploy test does not resolve " + key + ": " + node);
                    }
            }
        }
        Map<String, Object> resolved = new LinkedHashMap<>();
        map.forEach((key, value) -> {
            Object v = resolveOrDrop(value);
            if (v != NO_VALUE) {
                resolved.put(key, v);
            }
        });
        return resolved;
    }

    /** Whether the template's condition {@code name} holds. */
    boolean condition(String name) {
        Object definition = conditions.get(name);
        if (definition == null) {
            throw new IllegalArgumentException("unknown condition " + name);
        }
        return (Boolean) resolve(definition);
    }

    private String value(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no value for " + name + " (known: " + values.keySet() + ")");
        }
        return value;
    }

    private String substitute(String text) {
        Matcher variable = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (variable.find()) {
            variable.appendReplacement(out, Matcher.quoteReplacement(value(variable.group(1))));
        }
        variable.appendTail(out);
        return out.toString();
    }
}

package dev.snowid.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Evaluates a template's {@code Rules} section for given parameter values, the way
 * CloudFormation does before it creates or updates a stack: a rule whose RuleCondition holds
 * (or that has none) must have every Assert hold, or the whole operation is refused.
 *
 * <p>Only the functions CloudFormation allows in rules are understood; anything else is an
 * error here, so a rule this evaluator cannot read fails the test instead of passing.
 */
final class RulesEvaluator {

    private final Map<String, Object> rules;

    RulesEvaluator(Template template) {
        this.rules = template.rules();
    }

    /** The AssertDescriptions of the assertions that fail; empty when the values are accepted. */
    List<String> violations(Map<String, String> parameterValues) {
        List<String> violations = new ArrayList<>();
        rules.forEach((name, body) -> {
            Map<String, Object> rule = Template.map(body);
            Object condition = rule.get("RuleCondition");
            if (condition != null && !truth(condition, parameterValues, name)) {
                return;
            }
            for (Object item : Template.list(rule.get("Assertions"))) {
                Map<String, Object> assertion = Template.map(item);
                if (!truth(assertion.get("Assert"), parameterValues, name)) {
                    violations.add(name + ": " + assertion.getOrDefault("AssertDescription", "(no description)"));
                }
            }
        });
        return violations;
    }

    private static boolean truth(Object expression, Map<String, String> values, String rule) {
        Object value = evaluate(expression, values, rule);
        if (value instanceof Boolean b) {
            return b;
        }
        throw new IllegalArgumentException("rule " + rule + ": " + expression + " is not a condition");
    }

    private static Object evaluate(Object expression, Map<String, String> values, String rule) {
        if (!(expression instanceof Map<?, ?> function)) {
            if (expression instanceof List<?> items) {
                List<Object> evaluated = new ArrayList<>();
                items.forEach(item -> evaluated.add(evaluate(item, values, rule)));
                return evaluated;
            }
            return String.valueOf(expression); // parameter values are strings, also for Number
        }
        if (function.size() != 1) {
            throw new IllegalArgumentException("rule " + rule + ": not a function: " + expression);
        }
        Map.Entry<?, ?> call = function.entrySet().iterator().next();
        String name = (String) call.getKey();
        Object argument = call.getValue();
        switch (name) {
            case "Ref": {
                String value = values.get((String) argument);
                if (value == null) {
                    throw new IllegalArgumentException("rule " + rule + ": Ref to " + argument + ", which has no value");
                }
                return value;
            }
            case "Fn::Equals": {
                List<Object> pair = arguments(argument, values, rule, 2);
                return pair.get(0).equals(pair.get(1));
            }
            case "Fn::Not": {
                List<Object> operand = Template.list(argument);
                if (operand.size() != 1) {
                    throw new IllegalArgumentException("rule " + rule + ": Fn::Not takes one condition, got " + operand);
                }
                return !truth(operand.get(0), values, rule);
            }
            case "Fn::And": {
                boolean all = true;
                for (Object term : Template.list(argument)) {
                    all &= truth(term, values, rule);
                }
                return all;
            }
            case "Fn::Or": {
                boolean any = false;
                for (Object term : Template.list(argument)) {
                    any |= truth(term, values, rule);
                }
                return any;
            }
            case "Fn::Contains": {
                List<Object> pair = arguments(argument, values, rule, 2);
                return Template.list(pair.get(0)).contains(pair.get(1));
            }
            case "Fn::EachMemberIn": {
                List<Object> pair = arguments(argument, values, rule, 2);
                return Template.list(pair.get(1)).containsAll(Template.list(pair.get(0)));
            }
            case "Fn::EachMemberEquals": {
                List<Object> pair = arguments(argument, values, rule, 2);
                return Template.list(pair.get(0)).stream().allMatch(pair.get(1)::equals);
            }
            default:
                throw new IllegalArgumentException("rule " + rule + ": " + name + " is not understood by this evaluator");
        }
    }

    private static List<Object> arguments(Object argument, Map<String, String> values, String rule, int count) {
        List<Object> list = Template.list(argument);
        if (list.size() != count) {
            throw new IllegalArgumentException("rule " + rule + ": expected " + count + " arguments, got " + list);
        }
        List<Object> evaluated = new ArrayList<>();
        for (Object item : list) {
            evaluated.add(evaluate(item, values, rule));
        }
        return evaluated;
    }
}

package dev.snowid.infra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A parsed CloudFormation/SAM template: plain maps and lists, intrinsic functions in their
 * long form. Navigation only; what must hold is in {@link TemplateChecks}.
 */
final class Template {

    /** Where the build says the template is (infra/pom.xml sets it for the tests). */
    static Path location() {
        return Path.of(System.getProperty("snowid.template", "template.yaml")).toAbsolutePath().normalize();
    }

    static Template load() {
        return new Template(CloudFormationYaml.load(location()));
    }

    private final Map<String, Object> root;

    Template(Map<String, Object> root) {
        this.root = root;
    }

    /** A deep, mutable copy: tests change it to show that a check notices. */
    Template copy() {
        return new Template(map(deepCopy(root)));
    }

    Map<String, Object> root() {
        return root;
    }

    Map<String, Object> parameters() {
        return map(root.getOrDefault("Parameters", Map.of()));
    }

    Map<String, Object> rules() {
        return map(root.getOrDefault("Rules", Map.of()));
    }

    Map<String, Object> resources() {
        return map(root.getOrDefault("Resources", Map.of()));
    }

    Map<String, Object> resource(String logicalId) {
        Object resource = resources().get(logicalId);
        if (resource == null) {
            throw new IllegalArgumentException("no resource " + logicalId);
        }
        return map(resource);
    }

    /** Logical ids of the resources of a type, in template order. */
    List<String> resourcesOfType(String type) {
        List<String> ids = new ArrayList<>();
        resources().forEach((id, resource) -> {
            if (type.equals(map(resource).get("Type"))) {
                ids.add(id);
            }
        });
        return ids;
    }

    Map<String, Object> properties(String logicalId) {
        return map(resource(logicalId).getOrDefault("Properties", Map.of()));
    }

    /** The only resource of a type, or empty when there is none or more than one. */
    Optional<String> single(String type) {
        List<String> ids = resourcesOfType(type);
        return ids.size() == 1 ? Optional.of(ids.get(0)) : Optional.empty();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        if (value instanceof Map) {
            return (Map<String, Object>) value;
        }
        throw new IllegalArgumentException("expected a mapping, found " + value);
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        if (value instanceof List) {
            return (List<Object>) value;
        }
        throw new IllegalArgumentException("expected a list, found " + value);
    }

    /** A value that may be written as one item or a list of them (IAM Action, Resource). */
    static List<Object> oneOrMany(Object value) {
        return value instanceof List ? list(value) : value == null ? List.of() : List.of(value);
    }

    /** Follows keys through nested maps; empty as soon as one is missing. */
    static Optional<Object> at(Object from, String... keys) {
        Object current = from;
        for (String key : keys) {
            if (!(current instanceof Map)) {
                return Optional.empty();
            }
            current = map(current).get(key);
        }
        return Optional.ofNullable(current);
    }

    private static Object deepCopy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put((String) k, deepCopy(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(deepCopy(v)));
            return copy;
        }
        return value;
    }
}

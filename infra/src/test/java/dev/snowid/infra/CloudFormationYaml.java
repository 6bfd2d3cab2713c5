package dev.snowid.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a CloudFormation YAML template into plain maps and lists, turning the short intrinsic
 * tags into the long form CloudFormation itself uses: {@code !Ref X} becomes
 * {@code {"Ref": "X"}}, {@code !Sub s} becomes {@code {"Fn::Sub": s}}, {@code !GetAtt A.B}
 * becomes {@code {"Fn::GetAtt": ["A", "B"]}}. An unknown tag fails the parse, as it would in
 * CloudFormation.
 */
final class CloudFormationYaml {

    /** Every short form CloudFormation accepts, with the rule-only functions. */
    private static final List<String> FUNCTIONS = List.of("And", "Base64", "Cidr", "Contains", "EachMemberEquals",
            "EachMemberIn", "Equals", "FindInMap", "ForEach", "GetAZs", "If", "ImportValue", "Join", "Length", "Not",
            "Or", "RefAll", "Select", "Split", "Sub", "ToJsonString", "Transform", "ValueOf", "ValueOfAll");

    private CloudFormationYaml() {
    }

    static Map<String, Object> load(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read template " + file, e);
        }
    }

    static Map<String, Object> parse(String yaml) {
        Object document = new Yaml(new IntrinsicConstructor()).load(yaml);
        if (!(document instanceof Map)) {
            throw new IllegalArgumentException("a template is a YAML mapping at the top level");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> template = (Map<String, Object>) document;
        return template;
    }

    private static final class IntrinsicConstructor extends SafeConstructor {

        IntrinsicConstructor() {
            super(new LoaderOptions());
            yamlConstructors.put(new Tag("!Ref"), new Intrinsic("Ref"));
            yamlConstructors.put(new Tag("!Condition"), new Intrinsic("Condition"));
            yamlConstructors.put(new Tag("!GetAtt"), new GetAtt());
            for (String function : FUNCTIONS) {
                yamlConstructors.put(new Tag("!" + function), new Intrinsic("Fn::" + function));
            }
        }

        private Object content(Node node) {
            if (node instanceof ScalarNode scalar) {
                return constructScalar(scalar);
            }
            if (node instanceof SequenceNode sequence) {
                return constructSequence(sequence);
            }
            return constructMapping((MappingNode) node);
        }

        private final class Intrinsic extends AbstractConstruct {
            private final String key;

            Intrinsic(String key) {
                this.key = key;
            }

            @Override
            public Object construct(Node node) {
                return Map.of(key, content(node));
            }
        }

        /** {@code !GetAtt Resource.Attribute} is short for a two-element list. */
        private final class GetAtt extends AbstractConstruct {
            @Override
            public Object construct(Node node) {
                Object content = content(node);
                if (content instanceof String text) {
                    int dot = text.indexOf('.');
                    if (dot < 0) {
                        throw new IllegalArgumentException("!GetAtt " + text + ": expected Resource.Attribute");
                    }
                    content = Arrays.asList(text.substring(0, dot), text.substring(dot + 1));
                }
                return Map.of("Fn::GetAtt", content);
            }
        }
    }
}

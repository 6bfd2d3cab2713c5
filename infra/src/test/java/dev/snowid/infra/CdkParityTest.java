package dev.snowid.infra;

import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.cdk.SnowidServiceProps;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One truth, tested: the stack the CDK construct synthesizes, after the SAM transform, is the SAM
 * template after the SAM transform, parameter by parameter, rule by rule, resource by
 * resource, output by output (routes with their auth and targets, IAM statements, environment,
 * throttles, alarms, retention: all of it, not a sample). Only the difference {@link #INTENDED}
 * describes may remain, with its reason.
 */
class CdkParityTest {

    private static final String CODE_URI = "s3://snowid-parity/snowid-function.jar";
    private static final String REGION = "eu-west-1";
    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    /** What the construct deploys differently, and why: each parameter's Default is the props' value. */
    private static final String INTENDED = "Parameters.*.Default: the props' value, so `cdk deploy` deploys what the props say";

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of("the template's defaults", SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(HASH).build()),
                Arguments.of("IAM, a registry elsewhere, a private lease API, no alarms", SnowidServiceProps.builder().datacenters("4-7")
                        .leaseAuth(SnowidServiceProps.LeaseAuth.AWS_IAM).idsAuth(SnowidServiceProps.IdsAuth.AWS_IAM)
                        .leasePrincipals(List.of("arn:aws:iam::123456789012:role/orders"))
                        .registryTable("snowid-claims").registryRegion("us-east-1")
                        .leaseEndpoint(SnowidServiceProps.LeaseEndpoint.VPC).leaseVpcEndpointId("vpce-0123456789abcdef0")
                        .alarms(false).dashboard(false).serviceName("orders").build()),
                Arguments.of("Managed Instances on java25", SnowidServiceProps.builder().datacenters("8-11").leaseSecretSha256(HASH)
                        .managedInstances(true).managedSubnetIds(List.of("subnet-0abc", "subnet-0def"))
                        .managedSecurityGroupIds(List.of("sg-0123456789abcdef0")).reservedConcurrency(64)
                        .runtime(SnowidServiceProps.Runtime.JAVA25)
                        .build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void theConstructDeploysWhatTheTemplateDeploys(String configuration, SnowidServiceProps props) {
        CdkSynthesis synthesized = CdkSynthesis.of("snowid-parity", props);
        System.out.println("[snowid] CdkParityTest (" + configuration + "): synthesized in " + synthesized.millis() + " ms");
        Map<String, Object> cdk = normalised(SamTranslator.translate(synthesized.template(), CODE_URI, REGION).root());
        Map<String, Object> sam = normalised(SamTranslator.translate(Template.location(), CODE_URI, REGION).root());
        // INTENDED: the one difference allowed, checked rather than skipped.
        Map<String, Object> samParameters = map(sam.get("Parameters"));
        props.parameters().forEach((name, value) -> {
            assertEquals(value, String.valueOf(map(map(cdk.get("Parameters")).get(name)).get("Default")), INTENDED);
            map(samParameters.get(name)).put("Default", map(map(cdk.get("Parameters")).get(name)).get("Default"));
        });
        assertTrue(map(sam.get("Resources")).size() > 20, "a template with its resources: " + map(sam.get("Resources")).keySet());

        Map<String, String> differences = new TreeMap<>();
        for (String section : union(sam, cdk)) {
            if (sam.get(section) instanceof Map<?, ?> entries && cdk.get(section) instanceof Map<?, ?> built
                    && !List.of("Transform", "Description").contains(section)) {
                for (String entry : union(map(entries), map(built))) {
                    difference(entries.get(entry), built.get(entry), section + "." + entry).ifPresent(d -> differences.put(section + "." + entry, d));
                }
            } else {
                difference(sam.get(section), cdk.get(section), section).ifPresent(d -> differences.put(section, d));
            }
        }
        assertEquals(Map.of(), differences, "the construct deploys these differently from the template: fix them, or allow them as INTENDED");
    }

    @Test
    void theParityCheckNoticesADifferenceAndWhereItIs() {
        Map<String, Object> template = normalised(Map.of("Resources", Map.of("T", Map.of("Properties", Map.of("Days", "30",
                "Target", Map.of("Fn::Sub", "${FVersion0123456789}"))))));
        assertEquals(Map.of("T", Map.of("Properties", Map.of("Days", "30", "Target", Map.of("Ref", "FVersion#")))), template.get("Resources"));
        assertEquals(java.util.Optional.of("at Resources.T.Properties.Days: template 30, construct 14"),
                difference(template.get("Resources"), Map.of("T", Map.of("Properties", Map.of("Days", "14",
                        "Target", Map.of("Ref", "FVersion#")))), "Resources"));
    }

    /**
     * GetAtt in list form, SAM's alias Sub as the Ref it stands for, and no content hash in the
     * names SAM makes up: a function's version and a REST API's deployment are named by a hash of
     * what they were made from, which includes the CodeUri and the parameters' Defaults.
     */
    private static Map<String, Object> normalised(Map<String, Object> root) {
        return map(normalise(CdkSynthesis.getAttAsList(root)));
    }

    private static final Pattern WHOLE_VARIABLE = Pattern.compile("\\$\\{([A-Za-z0-9]+)}");
    private static final Pattern CONTENT_HASH = Pattern.compile("((?:Version|Deployment)|deployment id: )[0-9a-f]{10,40}\\b");

    private static Object normalise(Object node) {
        if (node instanceof String text) {
            return CONTENT_HASH.matcher(text).replaceAll("$1#");
        }
        if (node instanceof List<?> items) {
            return items.stream().map(CdkParityTest::normalise).toList();
        }
        if (!(node instanceof Map<?, ?> fields)) {
            return node;
        }
        if (fields.size() == 1 && fields.get("Fn::Sub") instanceof String text) {
            Matcher whole = WHOLE_VARIABLE.matcher(text);
            if (whole.matches()) {
                return Map.of("Ref", normalise(whole.group(1)));
            }
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        fields.forEach((key, value) -> copy.put((String) normalise(key), normalise(value)));
        return copy;
    }

    /** Where two nodes first differ, as "at PATH: template X, construct Y"; values compared as CloudFormation reads them (strings). */
    private static java.util.Optional<String> difference(Object template, Object construct, String path) {
        if (template instanceof Map<?, ?> a && construct instanceof Map<?, ?> b) {
            for (String key : union(map(a), map(b))) {
                var found = difference(a.get(key), b.get(key), path + "." + key);
                if (found.isPresent()) {
                    return found;
                }
            }
            return java.util.Optional.empty();
        }
        if (template instanceof List<?> a && construct instanceof List<?> b && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                var found = difference(a.get(i), b.get(i), path + "[" + i + "]");
                if (found.isPresent()) {
                    return found;
                }
            }
            return java.util.Optional.empty();
        }
        boolean same = template == null || construct == null || template instanceof Map || template instanceof List
                ? Objects.equals(template, construct) : String.valueOf(template).equals(String.valueOf(construct));
        return same ? java.util.Optional.empty() : java.util.Optional.of("at " + path + ": template " + template + ", construct " + construct);
    }

    private static List<String> union(Map<String, Object> a, Map<String, Object> b) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return new ArrayList<>(keys);
    }
}

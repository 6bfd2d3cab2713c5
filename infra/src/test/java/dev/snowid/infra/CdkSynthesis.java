package dev.snowid.infra;

import static dev.snowid.infra.Template.map;

import dev.snowid.cdk.SnowidService;
import dev.snowid.cdk.SnowidServiceProps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awscdk.App;
import software.amazon.awscdk.DefaultStackSynthesizer;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;

/**
 * A stack holding only a {@link SnowidService}, synthesized through the CDK's Java API (no CDK
 * CLI: no bootstrap version rule, no path metadata, no version reporting) into a cloud assembly
 * of its own.
 *
 * @param stackName the stack's name, also its template's file name in the assembly
 * @param template the synthesized template (JSON, still with the SAM transform)
 * @param fileAssets what {@code cdk deploy} would upload before creating the stack
 */
record CdkSynthesis(String stackName, Path template, List<FileAsset> fileAssets, long millis) {

    /** One file of the assembly and where the stack expects it ({@code ${AWS::AccountId}}, {@code ${AWS::Region}} unresolved). */
    record FileAsset(Path file, String bucket, String key) {
    }

    static CdkSynthesis of(String stackName, SnowidServiceProps props) {
        long started = System.nanoTime();
        try {
            Path assembly = Files.createTempDirectory("snowid-cdk-out-");
            // Each assembly holds a copy of the function jar: gone when the test JVM ends.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(assembly)));
            App app = App.Builder.create().outdir(assembly.toString()).build();
            Stack stack = new Stack(app, stackName, StackProps.builder()
                    .synthesizer(DefaultStackSynthesizer.Builder.create().generateBootstrapVersionRule(false).build()).build());
            new SnowidService(stack, "Snowid", props);
            app.synth();
            Map<String, Object> manifest = map(new Yaml().load(Files.readString(assembly.resolve(stackName + ".assets.json"),
                    StandardCharsets.UTF_8)));
            List<FileAsset> assets = new ArrayList<>();
            map(manifest.get("files")).values().forEach(file -> {
                Path source = assembly.resolve((String) map(map(file).get("source")).get("path"));
                map(map(file).get("destinations")).values().forEach(destination -> assets.add(new FileAsset(source,
                        (String) map(destination).get("bucketName"), (String) map(destination).get("objectKey"))));
            });
            return new CdkSynthesis(stackName, assembly.resolve(stackName + ".template.json"), assets,
                    (System.nanoTime() - started) / 1_000_000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path tree) {
        try (var paths = Files.walk(tree)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // Best effort at exit: a temporary directory left behind is all it costs.
        }
    }

    /**
     * CfnInclude keeps the template's {@code !GetAtt A.B} in its string form, {@code "Fn::GetAtt": "A.B"},
     * which CloudFormation reads as {@code ["A", "B"]}; moto and this module's {@link Intrinsics} read
     * only the list form.
     */
    static Object getAttAsList(Object node) {
        if (node instanceof List<?> items) {
            return items.stream().map(CdkSynthesis::getAttAsList).toList();
        }
        if (!(node instanceof Map<?, ?> fields)) {
            return node;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        fields.forEach((key, value) -> copy.put((String) key, "Fn::GetAtt".equals(key) && value instanceof String dotted
                ? List.of(dotted.substring(0, dotted.indexOf('.')), dotted.substring(dotted.indexOf('.') + 1))
                : getAttAsList(value)));
        return copy;
    }
}

package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The function's own classes reach no JSON type the AWS SDK keeps for itself: its repackaged
 * Jackson and its {@code @SdkProtectedApi} JSON tree may change in any SDK release. Checked in
 * the compiled classes, so a fully qualified name or a lambda cannot slip past.
 */
class NoSdkInternalJsonTest {

    private static final List<String> SDK_INTERNAL = List.of("software/amazon/awssdk/thirdparty/",
            "software/amazon/awssdk/protocols/jsoncore/");

    @Test
    void noMainClassRefersToTheSdksInternalJson() throws URISyntaxException {
        Path classes = Path.of(SnowidHandler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(classes.resolve("dev/snowid/lambda")), "compiled main classes at " + classes);
        try (Stream<Path> files = Files.walk(classes)) {
            List<String> offenders = files.filter(f -> f.toString().endsWith(".class"))
                    .filter(NoSdkInternalJsonTest::refersToSdkInternalJson)
                    .map(f -> classes.relativize(f).toString()).toList();
            assertEquals(List.of(), offenders);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Class names sit in the constant pool as modified UTF-8, which is plain ASCII for these. */
    private static boolean refersToSdkInternalJson(Path classFile) {
        try {
            String bytes = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
            return SDK_INTERNAL.stream().anyMatch(bytes::contains);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

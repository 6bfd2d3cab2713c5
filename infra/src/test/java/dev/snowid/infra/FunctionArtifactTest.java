package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The jar the template deploys is the one the build makes, and the Lambda java21 runtime can
 * start its Handler from it alone.
 */
class FunctionArtifactTest {

    /** Java 21's class file version: the java21 runtime loads nothing newer. */
    private static final int JAVA_21 = 65;
    private static final String STREAM_HANDLER = "com.amazonaws.services.lambda.runtime.RequestStreamHandler";
    private static final String CONTEXT = "com.amazonaws.services.lambda.runtime.Context";
    /** The template's two handlers: the functions', and the bearer-mode authorizer's. */
    private static final List<String> HANDLERS = List.of(CodeNames.HANDLER_CLASS, CodeNames.AUTHORIZER_CLASS);

    private static Path jar;

    @BeforeAll
    static void findTheJar() {
        String configured = System.getProperty("snowid.function.jar");
        if (configured == null) {
            fail("system property snowid.function.jar is not set: run through Maven (infra/pom.xml sets it)");
        }
        jar = Path.of(configured).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            fail("the function jar " + jar + " does not exist. Build it first, e.g. "
                    + "`mvn -pl infra -am verify` (the lambda module's shade execution makes it in `package`)");
        }
    }

    @Test
    void theTemplateDeploysTheJarTheBuildMakes() {
        assertEquals(List.of(), TemplateChecks.codeUri(Template.load(), Template.location(), jar));
    }

    @Test
    void theHandlerClassesAreInTheJarAndJava21CanLoadThem() throws IOException {
        for (String handlerClass : HANDLERS) {
            String entry = handlerClass.replace('.', '/') + ".class";
            try (JarFile file = new JarFile(jar.toFile())) {
                ZipEntry handler = file.getEntry(entry);
                if (handler == null) {
                    fail(jar + " has no " + entry + " although the template's Handler names it");
                }
                try (DataInputStream in = new DataInputStream(file.getInputStream(handler))) {
                    assertEquals(0xCAFEBABE, in.readInt(), "not a class file");
                    in.readUnsignedShort();
                    int major = in.readUnsignedShort();
                    assertTrue(major <= JAVA_21, entry + " is class file version " + major + ", newer than java21 runs");
                }
            }
        }
    }

    @Test
    void eachHandlerIsARequestStreamHandlerTheRuntimeCanConstruct() throws Exception {
        // Only the jar and the JDK: the runtime provides nothing else the handler could rely on.
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            for (String handlerClass : HANDLERS) {
                Class<?> handler = Class.forName(handlerClass, false, loader);
                Class<?> streamHandler = Class.forName(STREAM_HANDLER, false, loader);
                assertTrue(streamHandler.isAssignableFrom(handler), handler + " does not implement " + STREAM_HANDLER);
                assertTrue(Modifier.isPublic(handler.getModifiers()) && !Modifier.isAbstract(handler.getModifiers()),
                        handler + " must be a public concrete class");
                assertTrue(Modifier.isPublic(handler.getConstructor().getModifiers()), handler + " needs a public no-argument constructor");
                Method method = handler.getMethod(CodeNames.HANDLER_METHOD, InputStream.class, OutputStream.class,
                        Class.forName(CONTEXT, false, loader));
                assertEquals(void.class, method.getReturnType());
            }
        }
    }
}

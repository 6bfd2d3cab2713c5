package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The shaded jar: Java 8 bytecode for the agent and core, Byte Buddy's ASM and core relocated, the agent manifest. */
class AgentJarIT {

    @Test
    void agentAndCoreClassesAreJava8Bytecode() throws IOException {
        int agentClasses = 0;
        int coreClasses = 0;
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR)) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                String name = entry.getName();
                if (!name.endsWith(".class") || name.startsWith("dev/snowid/agent/shaded/bytebuddy/") || name.startsWith("META-INF/")) {
                    continue;
                }
                int major = majorVersion(jar, entry);
                if (name.startsWith("dev/snowid/agent/shaded/zxcvbn/")) { // a library built for Java 7: it runs on 8 as it is
                    assertTrue(major <= 52, name + " must run on Java 8 (major 52 or lower), was " + major);
                    continue;
                }
                assertEquals(52, major, name + " must be Java 8 bytecode (major 52) to run in legacy JVMs");
                if (name.startsWith("dev/snowid/agent/shaded/core/")) {
                    coreClasses++;
                } else {
                    agentClasses++;
                }
            }
        }
        assertTrue(agentClasses > 10, "agent classes found: " + agentClasses);
        assertTrue(coreClasses > 10, "core classes found: " + coreClasses);
    }

    @Test
    void byteBuddyAndCoreAreRelocated() throws IOException {
        List<String> leaked = new ArrayList<>();
        int asm = 0;
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR)) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                String name = entries.nextElement().getName().replaceFirst("^META-INF/versions/\\d+/", "");
                if (name.endsWith(".class") && !name.startsWith("dev/snowid/agent/")) {
                    leaked.add(name);
                }
                if (name.startsWith("dev/snowid/agent/shaded/bytebuddy/jar/asm/")) {
                    asm++;
                }
            }
        }
        assertTrue(leaked.isEmpty(), "classes outside dev/snowid/agent/ could clash with the application's: " + leaked);
        assertTrue(asm > 20, "relocated classes of Byte Buddy's ASM: " + asm);
    }

    @Test
    void manifestMakesItAnAgentAndACommand() throws IOException {
        try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR)) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertEquals("dev.snowid.agent.SnowidAgent", main.getValue("Premain-Class"));
            assertEquals("dev.snowid.agent.SnowidAgent", main.getValue("Agent-Class"));
            assertEquals("true", main.getValue("Can-Retransform-Classes"));
            assertEquals("dev.snowid.agent.SnowidCli", main.getValue("Main-Class"));
            assertEquals(ChildJvm.AGENT_VERSION, main.getValue("Implementation-Version"));
        }
    }

    private static int majorVersion(JarFile jar, JarEntry entry) throws IOException {
        try (InputStream in = jar.getInputStream(entry); DataInputStream data = new DataInputStream(in)) {
            if (data.readInt() != 0xCAFEBABE) {
                throw new AssertionError(entry.getName() + " is not a class file");
            }
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }
}

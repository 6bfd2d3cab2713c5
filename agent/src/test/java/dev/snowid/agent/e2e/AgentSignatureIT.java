package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * Methods declared to return Number, Comparable, Object, Serializable or CharSequence are
 * redirected with a value of the right class (Long by default, String with {@code :string}); a
 * compiler bridge method is neither a target nor warned about, and calls through it reach the
 * redirected method.
 */
class AgentSignatureIT {

    static final String TYPED = "com.acme.legacy.TypedIds";
    static final String SUPPLIER = "com.acme.legacy.LongIdSupplier";

    @TempDir
    Path dir;

    @OnEveryJdk
    void widerReturnTypesAndBridgeMethods(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "12:30")
                .property("snowid.targets", String.join(",", TYPED + "#nextNumber", TYPED + "#nextComparable", TYPED + "#nextObject",
                        TYPED + "#nextObjectAsString:string", TYPED + "#nextSerializable", TYPED + "#nextChars",
                        TYPED + "#nextLongAsString:string", SUPPLIER + "#get"))
                .run(ids, "com.acme.legacy.TypedApp", ids.toString(), "2500");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertFalse(result.stdout.contains(AgentRedirectIT.MARKER), () -> "an original body ran:\n" + result);
        assertTrue(result.stdout.contains("TYPES Long Long Long String Long String"), result::toString);
        for (String method : new String[] {"Number " + TYPED + "#nextNumber()", "Comparable " + TYPED + "#nextComparable()",
                "Object " + TYPED + "#nextObject()", "Object " + TYPED + "#nextObjectAsString()", "Serializable " + TYPED + "#nextSerializable()",
                "CharSequence " + TYPED + "#nextChars()", "Long " + SUPPLIER + "#get()"}) {
            assertTrue(result.stderr.contains("[snowid] redirected " + method + " in "), () -> method + " not redirected:\n" + result);
        }
        // The bridge Object get() is left to call the real method: no line of its own, no warning.
        assertEquals(1, AgentPresetIT.occurrences(result.stderr, "[snowid] redirected Long " + SUPPLIER + "#get()"), result::toString);
        assertFalse(result.stderr.contains("Object " + SUPPLIER + "#get()"), result::toString);
        assertFalse(result.stderr.contains("[snowid] WARNING: [target_not_redirected] " + SUPPLIER), result::toString);
        assertTrue(result.stderr.contains("[snowid] at shutdown: " + SUPPLIER + "#get answered 5000 call(s)"), result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [target_not_redirected] " + TYPED + "#nextLongAsString:string is not redirected: long " + TYPED
                + "#nextLongAsString() in jdk.internal.loader.ClassLoaders$AppClassLoader@"), result::toString);
        assertTrue(result.stderr.contains("returns long, which cannot hold the String that ':string' asks for; drop the suffix"), result::toString);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 2500 * 8, SnowflakeCodec.TWITTER, 12, 30, before, after);
    }
}

package dev.snowid.agent.cli;

import dev.snowid.agent.SnowidCli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DecodeCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return SnowidCli.run(args, new PrintStream(out, true), new PrintStream(err, true));
    }

    private String out() {
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    private String err() {
        return new String(err.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void printsEveryField() {
        assertEquals(0, run("decode", "1724551110457221119"));
        assertEquals(String.join(System.lineSeparator(),
                "id:         1724551110457221119",
                "timestamp:  1700000000000",
                "time:       2023-11-14T22:13:20Z",
                "datacenter: 7",
                "machine:    13",
                "sequence:   4095",
                "epoch:      1288834974657", ""), out());
    }

    @Test
    void epochOptionMayComeAfterTheId() {
        assertEquals(0, run("decode", "0", "--epoch", "1000"));
        assertTrue(out().contains("timestamp:  1000"), out());
    }

    @Test
    void notAnIdIsExitOneWithTheReason() {
        assertEquals(1, run("decode", "+12"));
        assertTrue(err().startsWith("invalid ID: '+12' is not an ID: character 1 is '+'"), err());
        assertEquals("", out());
    }

    /** Issue 32: --api printed the URL as given, user information and query included. */
    @Test
    void anApiUrlIsShownWithoutItsUserInformationOrQuery() {
        assertEquals(1, run("decode", "--api", "https://ops:hunter2@ids.example.org/?token=hunter3", "1724551110457221119"));
        assertTrue(err().startsWith("cannot ask https://<not shown>@ids.example.org/?<not shown> for the ID's region:"), err());
        assertFalse(err().contains("hunter"), err());
    }

    @Test
    void wrongArgumentsAreExitTwoWithUsage() {
        assertEquals(2, run("decode", "--epoch"));
        assertTrue(err().contains("--epoch needs a value") && err().contains("usage:"), err());
        assertEquals(2, run());
        assertEquals(2, run("encode", "1"));
        assertEquals(0, run("--help"));
    }
}

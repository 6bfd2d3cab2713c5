package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starts a real JVM (a fixture "legacy" app, with or without the agent) and collects its exit and output. */
public final class ChildJvm {

    static final String AGENT_JAR = requiredProperty("snowid.test.agentJar");
    /** The same agent with the relocated AWS SDK, for snowid.lease.auth=aws_iam. */
    static final String IAM_AGENT_JAR = requiredProperty("snowid.test.agentIamJar");
    /** The AWS SDK v2's jars, for a fixture app that brings its own. */
    static final String FIXTURE_AWS_SDK = requiredProperty("snowid.test.fixtureAwsSdk");
    static final String FIXTURE_CLASSES = requiredProperty("snowid.test.fixtureClasses");
    /** org.crac and the test CRaC implementation (snowid-testing-fixtures), for the app that takes a checkpoint. */
    static final String FIXTURE_CRAC = requiredProperty("snowid.test.fixtureCrac");
    /** The real libraries the presets cover (Hutool, MyBatis-Plus with MyBatis) and H2, as a class path. */
    static final String FIXTURE_LIBRARIES = requiredProperty("snowid.test.fixtureLibraries");
    static final String AGENT_VERSION = requiredProperty("snowid.test.agentVersion");

    private final Jdk jdk;
    private final List<String> jvmOptions = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String classPath = FIXTURE_CLASSES;
    private boolean withAgent = true;
    private String agentJar = AGENT_JAR;
    private boolean awsIsolated;
    private String agentArgument;

    private ChildJvm(Jdk jdk) {
        this.jdk = jdk;
    }

    public static ChildJvm on(Jdk jdk) {
        return new ChildJvm(jdk);
    }

    public ChildJvm property(String name, String value) {
        jvmOptions.add("-D" + name + "=" + value);
        return this;
    }

    /** Any other option of the child's JVM, e.g. {@code -Xlog:class+load}. */
    public ChildJvm jvmOption(String option) {
        jvmOptions.add(option);
        return this;
    }

    public ChildJvm env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    public ChildJvm classPath(String... entries) {
        classPath = String.join(File.pathSeparator, entries);
        return this;
    }

    /** The fixture classes and the real ID libraries. */
    public ChildJvm withLibraries() {
        return classPath(FIXTURE_CLASSES, FIXTURE_LIBRARIES);
    }

    /** {@code -javaagent:snowid-agent-iam.jar}. */
    public ChildJvm withIamAgent() {
        agentJar = IAM_AGENT_JAR;
        return this;
    }

    /**
     * No AWS setting of this JVM's (no {@code AWS_*} variable, no ~/.aws: {@code home} instead, no
     * instance metadata unless the test sets it): the child's credentials come from what the test gives.
     */
    public ChildJvm isolatedFromAws(Path home) {
        awsIsolated = true;
        jvmOptions.add("-Duser.home=" + home);
        environment.put("HOME", home.toString());
        environment.putIfAbsent("AWS_EC2_METADATA_DISABLED", "true");
        return this;
    }

    public ChildJvm withoutAgent() {
        withAgent = false;
        return this;
    }

    /** {@code -javaagent:snowid-agent.jar=<argument>}. */
    public ChildJvm agentArgument(String argument) {
        agentArgument = argument;
        return this;
    }

    public Process start(Path output, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(jdk.java());
        addAgent(command);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(Arrays.asList(args));
        return start(output, command);
    }

    /** {@code java [-javaagent…] -jar <jar> <args>}: an executable jar, such as a Spring Boot application. */
    public Result runJar(Path output, Path jar, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(jdk.java());
        addAgent(command);
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(Arrays.asList(args));
        return waitFor(output, "java -jar " + jar.getFileName(), start(output, command));
    }

    private void addAgent(List<String> command) {
        if (withAgent) {
            command.add("-javaagent:" + agentJar + (agentArgument != null ? "=" + agentArgument : ""));
        }
    }

    /** {@code java -jar snowid-agent.jar <args>}: the agent jar's command line. */
    public Result runAgentJar(Path output, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(jdk.java());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(agentJar);
        command.addAll(Arrays.asList(args));
        return waitFor(output, "java -jar snowid-agent.jar", start(output, command));
    }

    private Process start(Path output, List<String> command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command);
        // The test machine's own SNOWID_* variables must not leak into the child's configuration.
        builder.environment().keySet().removeIf(name -> name.startsWith("SNOWID_") || awsIsolated && name.startsWith("AWS_"));
        builder.environment().putAll(environment);
        builder.redirectOutput(output.resolveSibling(output.getFileName() + ".out").toFile());
        builder.redirectError(output.resolveSibling(output.getFileName() + ".err").toFile());
        return builder.start();
    }

    /** Runs to the end (at most two minutes) and returns what it did. */
    public Result run(Path output, String mainClass, String... args) throws IOException, InterruptedException {
        return waitFor(output, mainClass, start(output, mainClass, args));
    }

    Result waitFor(Path output, String mainClass, Process process) throws IOException, InterruptedException {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            fail(jdk + ": " + mainClass + " did not finish within 120 s; stderr:\n" + Result.read(output, ".err"));
        }
        return Result.of(output, process.exitValue());
    }

    /**
     * Waits (at most a minute) for the child's stdout to match {@code pattern}; fails when the
     * child ends without it, or kills the child and fails when the minute is up.
     */
    static Matcher awaitOutput(Path run, Process app, Pattern pattern) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            boolean ended = !app.isAlive(); // before reading: what an ended child wrote is all there is
            Matcher matcher = pattern.matcher(Result.read(run, ".out"));
            if (matcher.find()) {
                return matcher;
            }
            if (ended) {
                fail("the child JVM ended without '" + pattern + "':\n" + output(run));
            }
            if (System.nanoTime() > deadline) {
                app.destroyForcibly().waitFor();
                fail("no '" + pattern + "' from the child JVM within 60 s:\n" + output(run));
            }
            Thread.sleep(20);
        }
    }

    /** Waits (at most a minute) until the child has written {@code count} IDs to {@code ids}. */
    static void awaitIds(Path ids, Process app, int count) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(ids) || Files.size(ids) < 8L * count) {
            if (!app.isAlive() || System.nanoTime() > deadline) {
                fail("fewer than " + count + " IDs from the child JVM within 60 s:\n" + output(ids));
            }
            Thread.sleep(20);
        }
    }

    /** The child's stdout and stderr so far, for a failure message. */
    static String output(Path run) {
        try {
            return "--- stdout ---\n" + Result.read(run, ".out") + "--- stderr ---\n" + Result.read(run, ".err");
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static String requiredProperty(String name) {
        String value = System.getProperty(name);
        if (value == null) {
            throw new IllegalStateException("system property " + name + " is not set: run the end-to-end tests through"
                    + " Maven (mvn -pl agent -am verify), which builds the agent jar and sets it");
        }
        return value;
    }

    /** Exit status, stdout and stderr of a finished child JVM. */
    public static final class Result {
        public final int exitCode;
        public final String stdout;
        public final String stderr;

        Result(int exitCode, String stdout, String stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        static Result of(Path output, int exitCode) throws IOException {
            return new Result(exitCode, read(output, ".out"), read(output, ".err"));
        }

        static String read(Path output, String suffix) throws IOException {
            Path file = output.resolveSibling(output.getFileName() + suffix);
            return Files.exists(file) ? new String(Files.readAllBytes(file), StandardCharsets.UTF_8) : "";
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
        }
    }
}

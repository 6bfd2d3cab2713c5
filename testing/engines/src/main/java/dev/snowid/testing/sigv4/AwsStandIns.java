package dev.snowid.testing.sigv4;

import dev.snowid.testing.engine.PathCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Python stand-ins for AWS ({@code aws_stand_ins.py}, beside this class): a proxy that
 * verifies every request's SigV4 signature with botocore before it forwards it to the real local
 * runner, the ECS container credentials endpoint and IMDSv2. Needs {@code python3} with botocore:
 * without them this fails, it never skips (CI has both).
 */
public final class AwsStandIns implements AutoCloseable {

    public static final String REGION = "eu-west-1";
    public static final String ACCOUNT = "123456789012";
    private static final long START_TIMEOUT_MILLIS = 30_000;
    private static final long BOTOCORE_CHECK_SECONDS = 20;
    private static final Pattern READY = Pattern.compile("READY \\{\"proxy\": (\\d+), \"container\": (\\d+), \"imds\": (\\d+)}");

    private final Process process;
    private final int proxyPort;
    private final int containerPort;
    private final int imdsPort;
    private final List<String> output;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private AwsStandIns(Process process, Matcher ready, List<String> output) {
        this.process = process;
        this.proxyPort = Integer.parseInt(ready.group(1));
        this.containerPort = Integer.parseInt(ready.group(2));
        this.imdsPort = Integer.parseInt(ready.group(3));
        this.output = output;
    }

    /** What the stand-ins start with. */
    public static final class Options {
        private final List<String> arguments = new ArrayList<>();

        public Options(URI upstream, String upstreamSecret) {
            arguments.addAll(List.of("--upstream", upstream.toString(), "--upstream-secret", upstreamSecret, "--region", REGION));
        }

        /** Static credentials the proxy knows, and the caller ARN they stand for. */
        public Options key(String accessKeyId, String secretKey, String arn) {
            arguments.addAll(List.of("--key", accessKeyId + ":" + secretKey + ":" + arn));
            return this;
        }

        /** The credentials moto's STS issues are known too. */
        public Options moto(URI endpoint) {
            arguments.addAll(List.of("--moto", endpoint.toString()));
            return this;
        }

        /** The {@code Authorization} value the container endpoint requires ({@code AWS_CONTAINER_AUTHORIZATION_TOKEN}). */
        public Options containerToken(String token) {
            arguments.addAll(List.of("--container-token", token));
            return this;
        }

        /** How long the credential endpoints' credentials are valid. */
        public Options credentialsValidFor(Duration ttl) {
            arguments.addAll(List.of("--ttl", Long.toString(ttl.toSeconds())));
            return this;
        }
    }

    public static AwsStandIns start(Options options) {
        Path python = PathCommand.find("python3").orElseThrow(() -> new IllegalStateException(
                "no python3 on PATH: the IAM tests verify signatures with botocore (python3 with `pip install botocore`)"));
        requireBotocore(List.of(python.toString()));
        Path script = extractScript();
        List<String> command = new ArrayList<>(List.of(python.toString(), script.toString()));
        command.addAll(options.arguments);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
        List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> read(process.getInputStream(), output, ready), "aws-stand-ins-output");
        reader.setDaemon(true);
        reader.start();
        try {
            return new AwsStandIns(process, ready.get(START_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS), output);
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the AWS stand-ins did not start within " + START_TIMEOUT_MILLIS + " ms; output: "
                    + String.join("\n", output), e);
        } catch (ExecutionException e) {
            process.destroyForcibly();
            throw new IllegalStateException("the AWS stand-ins exited before they were ready; output: " + String.join("\n", output), e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the AWS stand-ins", e);
        }
    }

    /**
     * Fails at once, saying what to install, when {@code python} (the command that runs python3)
     * cannot import botocore: the stand-ins would exit at their first line.
     */
    public static void requireBotocore(List<String> python) {
        List<String> command = new ArrayList<>(python);
        command.addAll(List.of("-c", "import botocore"));
        try {
            Process check = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] said = check.getInputStream().readAllBytes(); // ends when the process does
            if (!check.waitFor(BOTOCORE_CHECK_SECONDS, TimeUnit.SECONDS)) {
                check.destroyForcibly();
                throw new IllegalStateException("`" + String.join(" ", command) + "` did not finish within " + BOTOCORE_CHECK_SECONDS + " s");
            }
            if (check.exitValue() != 0) {
                List<String> lines = new String(said, StandardCharsets.UTF_8).strip().lines().toList();
                throw new IllegalStateException("install botocore (pip install botocore): the IAM tests verify every SigV4 signature "
                        + "with it, and `" + String.join(" ", command) + "` says: " + (lines.isEmpty() ? "exit status "
                        + check.exitValue() : lines.get(lines.size() - 1)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking for botocore", e);
        }
    }

    private static void read(InputStream in, List<String> output, CompletableFuture<Matcher> ready) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                output.add(line);
                Matcher matcher = READY.matcher(line);
                if (matcher.matches()) {
                    ready.complete(matcher);
                }
            }
        } catch (IOException e) {
            ready.completeExceptionally(e);
        }
        ready.completeExceptionally(new IllegalStateException("the AWS stand-ins exited"));
    }

    private static Path extractScript() {
        try (InputStream in = AwsStandIns.class.getResourceAsStream("aws_stand_ins.py")) {
            if (in == null) {
                throw new IllegalStateException("aws_stand_ins.py is not beside " + AwsStandIns.class.getName());
            }
            Path script = Files.createTempFile("aws_stand_ins-", ".py");
            script.toFile().deleteOnExit();
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
            return script;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The verifying proxy: the lease URL callers use. */
    public URI proxy() {
        return URI.create("http://127.0.0.1:" + proxyPort);
    }

    /** For {@code AWS_CONTAINER_CREDENTIALS_FULL_URI}. */
    public URI containerCredentials() {
        return URI.create("http://127.0.0.1:" + containerPort + "/credentials");
    }

    /** For {@code AWS_EC2_METADATA_SERVICE_ENDPOINT}. */
    public URI instanceMetadata() {
        return URI.create("http://127.0.0.1:" + imdsPort);
    }

    /** What happened so far: verified and rejected requests, keys used, credentials issued, as the stand-ins report it. */
    public StandInStats stats() {
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(proxy().resolve("/__stand-ins/stats"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return StandInStats.parse(answer.body());
        } catch (IOException e) {
            throw new UncheckedIOException("the stand-ins did not answer their stats; output: " + String.join("\n", output), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.flush(); // closing it is the signal to stop
        } catch (IOException alreadyGone) {
            // It has exited already.
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

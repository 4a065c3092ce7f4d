package io.github.leanscrape.prometheus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.fail;

/**
 * A real scraping server in its own process, Prometheus or VictoriaMetrics, on a free
 * port of the loopback interface, with its configuration and storage in a directory of
 * the test's, scraping one target every second, and queried through the Prometheus HTTP
 * API that both serve.
 *
 * @author leanscrape
 */
final class ScrapingServer implements AutoCloseable {

	static final String JOB = "leanscrape-demo";

	private static final Duration POLL_INTERVAL = Duration.ofMillis(100);

	private static final int LOG_TAIL_LINES = 40;

	private final String name;

	private final Process process;

	private final Path log;

	private final URI base;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

	private ScrapingServer(String name, Process process, Path log, int port) {
		this.name = name;
		this.process = process;
		this.log = log;
		this.base = URI.create("http://127.0.0.1:" + port);
	}

	/**
	 * Start Prometheus.
	 * @param directory a directory for the configuration, storage and log
	 * @param targetPort the port of the application to scrape on 127.0.0.1
	 * @param flags further command line flags
	 * @return the running server; close it to stop it
	 * @throws IOException if the files cannot be written or the process not started
	 */
	static ScrapingServer prometheus(Path directory, int targetPort, String... flags) throws IOException {
		Path executable = Executables.require("prometheus");
		Path config = directory.resolve("prometheus.yml");
		Files.writeString(config, configuration(targetPort, ""));
		int port = freePort();
		List<String> command = new ArrayList<>();
		command.add(executable.toString());
		command.add("--config.file=" + config);
		command.add("--storage.tsdb.path=" + directory.resolve("data"));
		command.add("--web.listen-address=127.0.0.1:" + port);
		command.addAll(List.of(flags));
		return start("Prometheus", command, directory.resolve("prometheus.log"), port);
	}

	/**
	 * Start VictoriaMetrics (single node), which scrapes with its own client and parser.
	 * It asks for text 0.0.4 unless told otherwise.
	 * @param directory a directory for the configuration, storage and log
	 * @param targetPort the port of the application to scrape on 127.0.0.1
	 * @param accept the {@code Accept} header its scrapes send instead of its own, or
	 * {@code null}
	 * @return the running server; close it to stop it
	 * @throws IOException if the files cannot be written or the process not started
	 */
	static ScrapingServer victoriaMetrics(Path directory, int targetPort, @Nullable String accept) throws IOException {
		Path executable = Executables.require("victoria-metrics");
		Path config = directory.resolve("scrape.yml");
		String headers = (accept != null) ? "    headers: ['Accept: " + accept + "']\n" : "";
		Files.writeString(config, configuration(targetPort, headers));
		int port = freePort();
		List<String> command = List.of(executable.toString(), "-promscrape.config=" + config,
				"-storageDataPath=" + directory.resolve("data"), "-httpListenAddr=127.0.0.1:" + port,
				// Answer queries with the newest samples, not those of 30 s ago.
				"-search.latencyOffset=0s");
		return start("VictoriaMetrics", command, directory.resolve("victoria-metrics.log"), port);
	}

	private static String configuration(int targetPort, String jobSettings) {
		return """
				global:
				  scrape_interval: 1s
				  scrape_timeout: 1s
				scrape_configs:
				  - job_name: %s
				    metrics_path: /actuator/prometheus
				%s    static_configs:
				      - targets: ['127.0.0.1:%d']
				""".formatted(JOB, jobSettings, targetPort);
	}

	private static ScrapingServer start(String name, List<String> command, Path log, int port) throws IOException {
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		try {
			// Neither server reads anything from its standard input.
			process.getOutputStream().close();
		}
		catch (IOException ex) {
			process.destroyForcibly();
			throw ex;
		}
		return new ScrapingServer(name, process, log, port);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Wait until the scrape target is up, failing with Prometheus's view of it and its
	 * log when it is not up in time.
	 * @param timeout how long to wait
	 * @return the target, as {@code /api/v1/targets} describes it
	 */
	JsonNode awaitTargetUp(Duration timeout) {
		return await(timeout, "the target to be up", () -> {
			JsonNode targets = get("/api/v1/targets?state=active").path("data").path("activeTargets");
			for (JsonNode target : targets) {
				if (JOB.equals(target.path("labels").path("job").asString())) {
					return target;
				}
			}
			return null;
		}, (target) -> "up".equals(target.path("health").asString()));
	}

	/**
	 * Run an instant query until it returns a non-empty vector.
	 * @param promql the query
	 * @param timeout how long to wait for a result
	 * @return the vector's elements
	 */
	JsonNode awaitVector(String promql, Duration timeout) {
		return await(timeout, "a result for " + promql, () -> {
			JsonNode response = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
			if (!"success".equals(response.path("status").asString())) {
				return fail("Query " + promql + " failed: " + response + logTail());
			}
			return response.path("data").path("result");
		}, (result) -> result.isArray() && !result.isEmpty());
	}

	/**
	 * Wait for the server to hold exemplars of the series a query selects (it keeps them
	 * only with {@code --enable-feature=exemplar-storage}).
	 * @param promql the query
	 * @param timeout how long to wait
	 * @return the series and their exemplars, as the exemplar API answers
	 */
	JsonNode awaitExemplars(String promql, Duration timeout) {
		return await(timeout, "exemplars of " + promql, () -> {
			long now = System.currentTimeMillis() / 1000;
			JsonNode response = get("/api/v1/query_exemplars?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
					+ "&start=" + (now - 3600) + "&end=" + (now + 3600));
			if (!"success".equals(response.path("status").asString())) {
				return fail("Exemplar query " + promql + " failed: " + response + logTail());
			}
			return response.path("data");
		}, (result) -> result.isArray() && !result.isEmpty());
	}

	private JsonNode await(Duration timeout, String what, Probe probe, Predicate<JsonNode> done) {
		long deadline = System.nanoTime() + timeout.toNanos();
		JsonNode last = null;
		Exception lastFailure = null;
		while (true) {
			if (!this.process.isAlive()) {
				return fail(this.name + " exited with " + this.process.exitValue() + " while waiting for " + what
						+ logTail());
			}
			try {
				last = probe.get();
				lastFailure = null;
				if (last != null && done.test(last)) {
					return last;
				}
			}
			catch (IOException ex) {
				lastFailure = ex;
			}
			if (System.nanoTime() - deadline > 0) {
				return fail("Timed out after " + timeout + " waiting for " + what + "; last answer: " + last
						+ ((lastFailure != null) ? "; last failure: " + lastFailure : "") + logTail());
			}
			sleep(POLL_INTERVAL);
		}
	}

	private JsonNode get(String pathAndQuery) throws IOException {
		HttpRequest request = HttpRequest.newBuilder(this.base.resolve(pathAndQuery))
			.timeout(Duration.ofSeconds(5))
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			return JsonMapper.shared().readTree(response.body());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
		catch (RuntimeException ex) {
			// Not JSON yet: the server is still starting.
			throw new IOException(ex);
		}
	}

	/**
	 * Return the end of the server's log, for failure messages.
	 * @return the last lines of the log, on lines of their own
	 */
	String logTail() {
		try {
			List<String> lines = Files.readAllLines(this.log);
			List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
			return "\n" + this.name + " log (last " + tail.size() + " lines):\n" + String.join("\n", tail);
		}
		catch (IOException | UncheckedIOException ex) {
			return "\n(" + this.name + " log unreadable: " + ex + ")";
		}
	}

	/**
	 * Stop the server and wait for it to be gone.
	 */
	@Override
	public void close() throws InterruptedException {
		this.process.destroyForcibly();
		if (!this.process.waitFor(30, TimeUnit.SECONDS)) {
			fail(this.name + " (pid " + this.process.pid() + ") did not exit");
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@FunctionalInterface
	private interface Probe {

		JsonNode get() throws IOException;

	}

}

package io.github.leanscrape.recording;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mixed HTTP traffic against a {@link RecordingTestApplication}, and the scrape of its
 * {@code http_server_requests*} families.
 */
public final class MixedTraffic {

	public static final String TEXT = "text/plain;version=0.0.4;q=1.0";

	public static final String OPEN_METRICS = "application/openmetrics-text;version=1.0.0;q=1.0";

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/**
	 * Send the mixed traffic: sequential requests of every kind, a concurrent burst, and
	 * a client that disconnects mid-body.
	 * @return the number of requests sent
	 */
	public int drive(int port) throws Exception {
		int sent = 0;
		for (int round = 0; round < 3; round++) {
			sent += expect(get(port, "/hello"), 200);
			sent += expect(send(port, "/hello", "HEAD"), 200);
			sent += expect(post(port, "/echo", "body " + round), 200);
			for (int id = 0; id < 4; id++) {
				sent += expect(get(port, "/items/" + id), 200);
			}
			sent += expect(get(port, "/items/" + round + "/parts/p" + round), 200);
			sent += expect(get(port, "/missing/" + round), 404);
			sent += expect(send(port, "/hello", "DELETE"), 405);
			sent += expect(get(port, "/teapot"), 418);
			sent += expect(get(port, "/redirect"), 302);
			sent += expect(get(port, "/boom"), 500);
			sent += expect(get(port, "/async"), 200);
			sent += expect(get(port, "/tenant"), 200);
			sent += expect(send(port, "/hello", "PROPFIND"), 405);
		}
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<Integer>> burst = new ArrayList<>();
			for (int i = 0; i < 40; i++) {
				String path = (i % 2 == 0) ? "/items/" + i : "/hello";
				burst.add(executor.submit(() -> expect(get(port, path), 200)));
			}
			for (Future<Integer> future : burst) {
				sent += future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		disconnectMidBody(port);
		sent++;
		return sent;
	}

	private HttpRequest.Builder request(int port, String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(30));
	}

	private HttpResponse<String> get(int port, String path) throws Exception {
		return this.client.send(request(port, path).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> send(int port, String path, String method) throws Exception {
		return this.client.send(request(port, path).method(method, HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(int port, String path, String body) throws Exception {
		return this.client.send(request(port, path).header("Content-Type", "text/plain")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static int expect(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.uri().toString()).isEqualTo(status);
		return 1;
	}

	/**
	 * Ask for an endless body, read its first bytes, then reset the connection: the
	 * server's next write fails.
	 */
	private static void disconnectMidBody(int port) throws Exception {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoLinger(true, 0);
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET /stream HTTP/1.1\r\nHost: localhost:" + port + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[16384];
			int total = 0;
			while (total < 16384) {
				int read = in.read(buffer);
				assertThat(read).isPositive();
				total += read;
			}
		}
	}

	/**
	 * Wait, without scraping (a scrape is a request too), until every request has been
	 * recorded and no long task is active.
	 */
	public static void awaitCompletion(ConfigurableApplicationContext context, int requests)
			throws InterruptedException {
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		long recorded = 0;
		int active = 0;
		while (System.nanoTime() < deadline) {
			recorded = 0;
			for (Timer timer : registry.find("http.server.requests").timers()) {
				recorded += timer.count();
			}
			active = 0;
			for (LongTaskTimer longTaskTimer : registry.find("http.server.requests.active").longTaskTimers()) {
				active += longTaskTimer.activeTasks();
			}
			if (recorded == requests && active == 0) {
				return;
			}
			Thread.sleep(20);
		}
		assertThat(recorded).as("recorded requests").isEqualTo(requests);
		assertThat(active).as("active requests").isZero();
	}

	public String scrape(ConfigurableApplicationContext context, String accept) throws Exception {
		HttpResponse<String> response = this.client
			.send(request(RecordingTestApplication.port(context), "/actuator/prometheus").header("Accept", accept)
				.GET()
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	/**
	 * Send the same traffic to a reference application and another, wait until each has
	 * recorded all of it, and return both applications' {@code http_server_requests*}
	 * families in text and OpenMetrics.
	 */
	public Sections driveBoth(ConfigurableApplicationContext reference, ConfigurableApplicationContext other,
			boolean exact) throws Exception {
		int referenceRequests = drive(RecordingTestApplication.port(reference));
		int requests = drive(RecordingTestApplication.port(other));
		assertThat(requests).isEqualTo(referenceRequests);
		awaitCompletion(reference, referenceRequests);
		awaitCompletion(other, requests);
		return new Sections(section(reference, TEXT, exact), section(other, TEXT, exact),
				section(reference, OPEN_METRICS, exact), section(other, OPEN_METRICS, exact));
	}

	/**
	 * Scrape an application and return its {@code http_server_requests*} families.
	 */
	public String section(ConfigurableApplicationContext context, String accept, boolean exact) throws Exception {
		return section(scrape(context, accept), exact);
	}

	/**
	 * Return the {@code http_server_requests*} families of a scrape, with timings masked
	 * unless the clock was frozen.
	 */
	public static String section(String scrape, boolean exact) {
		StringBuilder section = new StringBuilder();
		for (String line : scrape.split("\n", -1)) {
			if (line.startsWith("# HELP http_server_requests") || line.startsWith("# TYPE http_server_requests")) {
				section.append(line).append('\n');
			}
			else if (line.startsWith("http_server_requests")) {
				section.append(exact ? line : maskTiming(line)).append('\n');
			}
		}
		return section.toString();
	}

	private static String maskTiming(String line) {
		int space = line.lastIndexOf(' ');
		String series = line.substring(0, space);
		int brace = series.indexOf('{');
		String name = (brace >= 0) ? series.substring(0, brace) : series;
		boolean timing = name.endsWith("_sum") || name.endsWith("_gsum") || name.endsWith("_max")
				|| name.endsWith("_created") || (name.endsWith("_bucket") && !series.contains("le=\"+Inf\""));
		return timing ? series + " <timing>" : line;
	}

	/**
	 * The {@code http_server_requests*} families of a reference application and another.
	 */
	public record Sections(String referenceText, String text, String referenceOpenMetrics, String openMetrics) {
	}

}

package io.github.leanscrape.load;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.leanscrape.demo.DemoProcess;

/**
 * How much of a scrape changes between two scrapes 15 s apart in a Spring Boot service
 * under traffic: the demo application with several routes (items found and not found,
 * orders, searches of varying length, reports on the task executor), its
 * {@code http.server.requests} with percentile histograms, the JVM, process, Tomcat and
 * executor meters Spring Boot binds, and the starter's own; once alone and once beside
 * 100,000 synthetic series that do not move, as the idle series of a large service.
 * <p>
 * Each interval, a Prometheus-like scrape (OpenMetrics, gzip) lets the starter reuse what
 * did not change since the last, and its own metrics say how many segments it compressed
 * and how many it reused; an uncompressed scrape right after it gives every series'
 * value, compared with the one of the interval before. Run with
 * {@code ./mvnw -Pjmh -DskipTests test-compile exec:exec@change-share}; options in
 * {@code -Dchange-share.args}: {@code --interval=15s}, {@code --intervals=6},
 * {@code --rate=200} (requests per second), {@code --out=target}. Writes
 * {@code change-share.tsv} there.
 *
 * @author leanscrape
 */
public final class ChangeShareExperiment {

	private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

	private static final String OPENMETRICS = "application/openmetrics-text;version=1.0.0";

	private static final String[] ROUTES = { "/hello", "/items/7", "/items/123", "/items/4711", "/search?q=a",
			"/search?q=b", "/report" };

	private static final int[] WEIGHTS = { 40, 20, 10, 5, 10, 5, 5 };

	private static final int ORDER_WEIGHT = 5;

	private Duration interval = Duration.ofSeconds(15);

	private int intervals = 6;

	private int rate = 200;

	private Path out = Path.of("target");

	private ChangeShareExperiment() {
	}

	public static void main(String[] args) throws Exception {
		ChangeShareExperiment experiment = new ChangeShareExperiment();
		for (String arg : args) {
			String[] option = arg.split("=", 2);
			switch (option[0]) {
				case "--interval" -> {
					experiment.interval = Duration.parse("PT" + option[1].toUpperCase(Locale.ROOT));
				}
				case "--intervals" -> {
					experiment.intervals = Integer.parseInt(option[1]);
				}
				case "--rate" -> {
					experiment.rate = Integer.parseInt(option[1]);
				}
				case "--out" -> {
					experiment.out = Path.of(option[1]);
				}
				default -> throw new IllegalArgumentException("Unknown option " + arg);
			}
		}
		experiment.run(String.join(" ", args));
	}

	private void run(String arguments) throws Exception {
		Files.createDirectories(this.out);
		StringBuilder tsv = new StringBuilder();
		tsv.append("# change-share: ")
			.append(Instant.now())
			.append(", java ")
			.append(System.getProperty("java.version"))
			.append(", ")
			.append(Runtime.getRuntime().availableProcessors())
			.append(" cores\n");
		tsv.append("# command: ./mvnw -Pjmh -DskipTests test-compile exec:exec@change-share -Dchange-share.args=\"")
			.append(arguments)
			.append("\"\n");
		tsv.append("# interval: ")
			.append(this.interval.toSeconds())
			.append(" s, requests per second: ")
			.append(this.rate)
			.append('\n');
		tsv.append("synthetic\tinterval\tseries\tseries_changed\tsegments_compressed\tsegments_reused\n");
		for (int synthetic : new int[] { 0, 100_000 }) {
			measure(synthetic, tsv);
		}
		Path raw = this.out.resolve("change-share.tsv");
		Files.writeString(raw, tsv, StandardCharsets.UTF_8);
		System.out.println(tsv);
		System.out.println("Wrote " + raw);
	}

	private void measure(int synthetic, StringBuilder tsv) throws Exception {
		List<String> arguments = List.of("--demo.series=" + synthetic,
				"--management.metrics.distribution.percentiles-histogram.http.server.requests=true",
				"--server.tomcat.mbeanregistry.enabled=true");
		Path log = this.out.resolve("change-share-" + synthetic + ".log");
		try (DemoProcess demo = DemoProcess.start(List.of("-Xmx1g"), arguments, log, STARTUP_TIMEOUT)) {
			HttpClient client = HttpClient.newHttpClient();
			AtomicBoolean running = new AtomicBoolean(true);
			List<Thread> load = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				Thread thread = new Thread(() -> traffic(client, demo, running, this.rate / 4), "traffic-" + i);
				thread.setDaemon(true);
				thread.start();
				load.add(thread);
			}
			try {
				// A first interval under traffic: every route seen, every meter there.
				Thread.sleep(this.interval.toMillis());
				Map<String, String> previous = series(client, demo);
				double[] segments = gzipScrape(client, demo, previous);
				for (int i = 1; i <= this.intervals; i++) {
					Thread.sleep(this.interval.toMillis());
					Map<String, String> values = series(client, demo);
					double[] now = gzipScrape(client, demo, values);
					int changed = 0;
					for (Map.Entry<String, String> entry : values.entrySet()) {
						if (!entry.getValue().equals(previous.get(entry.getKey()))) {
							changed++;
						}
					}
					tsv.append(String.format(Locale.ROOT, "%d\t%d\t%d\t%d\t%.0f\t%.0f%n", synthetic, i, values.size(),
							changed, now[0] - segments[0], now[1] - segments[1]));
					System.out.print(tsv.substring(tsv.lastIndexOf("\n", tsv.length() - 2) + 1));
					previous = values;
					segments = now;
				}
			}
			finally {
				running.set(false);
				for (Thread thread : load) {
					thread.join(TimeUnit.SECONDS.toMillis(5));
				}
			}
		}
	}

	/**
	 * Send requests to the routes at random, weighted, at about the given rate.
	 * @param client the client to send them with
	 * @param demo the demo that answers them
	 * @param running whether to go on sending
	 * @param perSecond the rate
	 */
	private static void traffic(HttpClient client, DemoProcess demo, AtomicBoolean running, int perSecond) {
		long pause = TimeUnit.SECONDS.toNanos(1) / Math.max(1, perSecond);
		int total = ORDER_WEIGHT;
		for (int weight : WEIGHTS) {
			total += weight;
		}
		while (running.get()) {
			int pick = ThreadLocalRandom.current().nextInt(total);
			HttpRequest request;
			if (pick < ORDER_WEIGHT) {
				request = HttpRequest.newBuilder(demo.uri("/orders")).POST(HttpRequest.BodyPublishers.noBody()).build();
			}
			else {
				pick -= ORDER_WEIGHT;
				int route = 0;
				while (pick >= WEIGHTS[route]) {
					pick -= WEIGHTS[route];
					route++;
				}
				request = HttpRequest.newBuilder(demo.uri(ROUTES[route])).build();
			}
			try {
				client.send(request, HttpResponse.BodyHandlers.discarding());
				TimeUnit.NANOSECONDS.sleep(pause);
			}
			catch (IOException ex) {
				// The application stops at the end of a measurement.
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/**
	 * Scrape as Prometheus does, and return the starter's counts of gzip segments
	 * compressed and reused, read from an uncompressed scrape's values.
	 * @param client the client to scrape with
	 * @param demo the demo to scrape
	 * @param values the series of the uncompressed scrape made just before (not read
	 * here)
	 * @return the segments compressed and the segments reused
	 * @throws IOException if the scrape fails
	 * @throws InterruptedException if interrupted while scraping
	 */
	private static double[] gzipScrape(HttpClient client, DemoProcess demo, Map<String, String> values)
			throws IOException, InterruptedException {
		HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(demo.uri("/actuator/prometheus"))
			.header("Accept", OPENMETRICS)
			.header("Accept-Encoding", "gzip")
			.build(), HttpResponse.BodyHandlers.ofByteArray());
		if (response.statusCode() != 200
				|| !"gzip".equals(response.headers().firstValue("Content-Encoding").orElse(""))) {
			throw new IllegalStateException(
					"A gzip scrape answered " + response.statusCode() + " " + response.headers().map());
		}
		Map<String, String> after = series(client, demo);
		return new double[] { value(after, "compressed"), value(after, "reused") };
	}

	private static double value(Map<String, String> series, String outcome) {
		for (Map.Entry<String, String> entry : series.entrySet()) {
			String key = entry.getKey();
			if (key.startsWith("leanscrape_compression_segments_total{") && key.contains("coding=\"gzip\"")
					&& key.contains("outcome=\"" + outcome + "\"")) {
				return Double.parseDouble(entry.getValue());
			}
		}
		return 0;
	}

	/**
	 * Return every series of an uncompressed OpenMetrics scrape with its value.
	 * @param client the client to scrape with
	 * @param demo the demo to scrape
	 * @return each series with its value
	 * @throws IOException if the scrape fails
	 * @throws InterruptedException if interrupted while scraping
	 */
	private static Map<String, String> series(HttpClient client, DemoProcess demo)
			throws IOException, InterruptedException {
		URI uri = demo.uri("/actuator/prometheus");
		String body = client
			.send(HttpRequest.newBuilder(uri).header("Accept", OPENMETRICS).build(),
					HttpResponse.BodyHandlers.ofString())
			.body();
		Map<String, String> series = new HashMap<>();
		for (String line : body.split("\n")) {
			if (line.isEmpty() || line.charAt(0) == '#') {
				continue;
			}
			int space = line.lastIndexOf(' ');
			series.put(line.substring(0, space), line.substring(space + 1));
		}
		return series;
	}

}

package io.github.leanscrape.load;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.leanscrape.demo.DemoProcess;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.support.OwnCodeTests;
import io.github.leanscrape.support.PinnedVirtualThreads;
import io.github.leanscrape.support.RawOutput;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two hundred scrapers at once against 100,000 series in an application with a 512 MiB
 * heap: every scrape is answered 200 or 503, none hangs, the application survives without
 * an {@link OutOfMemoryError}, and the scrape buffers never hold more than three bodies'
 * worth of memory at once.
 * <p>
 * The application runs in a JVM of its own, so that its heap limit is its own. The peak
 * comes from the application's {@code leanscrape.buffer.in.use.peak} gauge and the body
 * size from its {@code leanscrape.scrape.body} summary, both read over HTTP after the
 * storm; the sizes the scrapers received are checked against the latter.
 * <p>
 * On Java 21 and later the storm runs again on virtual threads
 * ({@code spring.threads.virtual.enabled=true}) with Java Flight Recorder on: no virtual
 * thread may stay pinned to its carrier (over 20 ms) in the starter's code.
 *
 * @author leanscrape
 */
@Tag(OwnCodeTests.TAG)
class BoundedMemoryTests {

	private static final int SERIES = 100_000;

	private static final int SCRAPERS = 200;

	private static final int ROUNDS = 3;

	private static final String SCRAPE_TIMEOUT_SECONDS = "10";

	/**
	 * Longer than the scrape timeout plus the time to send a body: a scrape still
	 * unanswered by then hangs.
	 */
	private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

	private static final String PATH = "/actuator/prometheus";

	private static final String PEAK = "leanscrape_buffer_in_use_peak_bytes";

	private static final String BODY_MAX = "leanscrape_scrape_body_bytes_max";

	private static final String SCRAPES = "leanscrape_scrapes";

	private static final String IN_USE = "leanscrape_buffer_in_use_bytes";

	private static final String KEPT = "leanscrape_compression_kept_bytes";

	@ParameterizedTest
	@EnumSource
	void scrapeStormIsAnsweredWithinThreeBodiesOfBufferMemory(Threads threads) throws Exception {
		Assumptions.assumeTrue(threads.runsHere(), "virtual threads need Java 21");
		Path output = Paths.get("target", "load", "bounded-memory-application-" + threads.id + ".log");
		Path recording = Paths.get("target", "load", "bounded-memory-" + threads.id + ".jfr").toAbsolutePath();
		Files.deleteIfExists(recording);
		List<String> jvmOptions = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseG1GC"));
		if (threads == Threads.VIRTUAL) {
			// Java Flight Recorder's default settings record virtual threads pinned for
			// more than 20 ms.
			jvmOptions.add("-XX:StartFlightRecording:dumponexit=true,filename=" + recording);
		}
		List<String> arguments = new ArrayList<>(List.of("--demo.series=" + SERIES));
		arguments.addAll(threads.arguments);
		long started = System.nanoTime();
		try (DemoProcess demo = DemoProcess.start(jvmOptions, arguments, output, STARTUP_TIMEOUT)) {
			long startedUp = System.nanoTime();
			HttpClient client = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(10))
				.build();
			// One scrape of each kind first, alone, so that the classes on a scrape's way
			// are initialized before the storm's threads arrive together: a virtual
			// thread
			// that waits for another to initialize a class is pinned, as while it loads
			// one.
			for (Variant variant : Variant.values()) {
				scrape(client, demo, variant).join();
			}
			List<Exchange> exchanges = new ArrayList<>();
			for (int round = 0; round < ROUNDS; round++) {
				exchanges.addAll(storm(client, demo));
			}
			long stormEnded = System.nanoTime();
			assertThat(demo.isAlive()).as("application alive after the storm").isTrue();
			Map<String, Double> figures = selfMetrics(client, demo);
			String log = demo.output();
			Map<String, Integer> counts = new TreeMap<>();
			long largestReceived = 0;
			for (Exchange exchange : exchanges) {
				counts.merge(exchange.outcome(), 1, Integer::sum);
				if (exchange.status == 200) {
					largestReceived = Math.max(largestReceived, exchange.uncompressedBytes);
				}
			}
			double peak = figures.get(PEAK);
			double body = figures.get(BODY_MAX);
			RawOutput raw = new RawOutput();
			raw.printf("Bounded memory: %d series, %d rounds of %d concurrent scrapes, -Xmx512m%n", SERIES, ROUNDS,
					SCRAPERS);
			raw.printf("  outcomes %s; start-up %.1f s, storm %.1f s%n", counts, (startedUp - started) / 1e9,
					(stormEnded - startedUp) / 1e9);
			raw.printf("  body %.0f bytes (largest received %d), buffer peak %.0f bytes = %.2f bodies%n", body,
					largestReceived, peak, peak / body);
			raw.printf("  after the storm: in use %.0f bytes, kept for reuse %.0f bytes%n", figures.get(IN_USE),
					figures.get(KEPT));
			figures.forEach((name, value) -> {
				if (name.startsWith(SCRAPES)) {
					raw.printf("  %s %.0f%n", name, value);
				}
			});
			if (threads == Threads.PLATFORM) {
				raw.write("bounded-memory", "./mvnw -B -pl leanscrape-demo -am verify -Dtest=BoundedMemoryTests"
						+ " -Dsurefire.failIfNoSpecifiedTests=false");
			}
			assertThat(log).doesNotContain("OutOfMemoryError");
			assertThat(exchanges).hasSize(ROUNDS * SCRAPERS);
			assertThat(exchanges).allSatisfy((exchange) -> assertThat(exchange.outcome()).isIn("200", "503"));
			assertThat(counts).containsKey("200");
			// The summary's maximum is the largest body rendered: the scrapers received
			// it.
			assertThat((double) largestReceived).isEqualTo(body);
			assertThat(peak)
				.as("buffer peak on %s (outcomes %s; after the storm %s bytes in use, %s kept)", threads.id, counts,
						figures.get(IN_USE), figures.get(KEPT))
				.isPositive()
				.isLessThanOrEqualTo(3 * body);
		}
		if (threads == Threads.VIRTUAL) {
			assertThat(recording).exists();
			assertThat(PinnedVirtualThreads.inRecording(recording)).isEmpty();
		}
	}

	/**
	 * The threads the application serves requests on.
	 */
	enum Threads {

		PLATFORM("platform-threads", 17),

		VIRTUAL("virtual-threads", 21, "--spring.threads.virtual.enabled=true");

		private final String id;

		private final int minimumJava;

		private final List<String> arguments;

		Threads(String id, int minimumJava, String... arguments) {
			this.id = id;
			this.minimumJava = minimumJava;
			this.arguments = List.of(arguments);
		}

		boolean runsHere() {
			return Runtime.version().feature() >= this.minimumJava;
		}

	}

	/**
	 * Send {@link #SCRAPERS} scrapes at once, most as Prometheus asks (OpenMetrics,
	 * gzip), the others for the text format with and without gzip, and wait for all.
	 */
	private static List<Exchange> storm(HttpClient client, DemoProcess demo) {
		List<CompletableFuture<Exchange>> pending = new ArrayList<>(SCRAPERS);
		for (int i = 0; i < SCRAPERS; i++) {
			Variant variant = (i % 4 != 3) ? Variant.OPENMETRICS_GZIP
					: ((i % 8 == 3) ? Variant.TEXT_GZIP : Variant.TEXT);
			pending.add(scrape(client, demo, variant));
		}
		List<Exchange> exchanges = new ArrayList<>(SCRAPERS);
		for (CompletableFuture<Exchange> exchange : pending) {
			// Each future ends by its own client timeout: join cannot wait without bound.
			exchanges.add(exchange.join());
		}
		return exchanges;
	}

	private static CompletableFuture<Exchange> scrape(HttpClient client, DemoProcess demo, Variant variant) {
		HttpRequest.Builder request = HttpRequest.newBuilder(demo.uri(PATH))
			.timeout(CLIENT_TIMEOUT)
			.header("Accept", variant.accept)
			.header(Deadlines.HEADER, SCRAPE_TIMEOUT_SECONDS);
		if (variant.gzip) {
			request.header("Accept-Encoding", "gzip");
		}
		CountingSubscriber body = new CountingSubscriber();
		return client.sendAsync(request.GET().build(), (info) -> HttpResponse.BodySubscribers.fromSubscriber(body))
			.orTimeout(CLIENT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
			.handle((response, failure) -> {
				if (failure != null) {
					return new Exchange(variant, -1, failure, -1);
				}
				boolean gzip = response.headers()
					.firstValue("Content-Encoding")
					.map("gzip"::equalsIgnoreCase)
					.orElse(false);
				return new Exchange(variant, response.statusCode(), null,
						gzip ? body.gzipTrailerSize() : body.received);
			});
	}

	/**
	 * Read the figures from a scrape filtered to the starter's memory meters.
	 */
	private static Map<String, Double> selfMetrics(HttpClient client, DemoProcess demo) throws Exception {
		String names = String.join(",", PEAK, BODY_MAX, SCRAPES, IN_USE, KEPT);
		HttpRequest request = HttpRequest.newBuilder(demo.uri(PATH + "?includedNames=" + names))
			.timeout(CLIENT_TIMEOUT)
			.header("Accept", "text/plain;version=0.0.4")
			.build();
		HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, Double> figures = new TreeMap<>();
		for (String line : response.body().split("\n")) {
			if (line.startsWith(SCRAPES + "_total{") && !line.endsWith(" 0.0")) {
				figures.put(line.substring(0, line.lastIndexOf(' ')),
						Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
			}
			if (line.startsWith(PEAK + " ") || line.startsWith(BODY_MAX + " ") || line.startsWith(IN_USE + " ")
					|| line.startsWith(KEPT + " ")) {
				String[] parts = line.split(" ");
				figures.put(parts[0], Double.parseDouble(parts[1]));
			}
		}
		assertThat(figures).as(response.body()).containsKeys(PEAK, BODY_MAX);
		return figures;
	}

	private enum Variant {

		// What Prometheus 2 sends.
		OPENMETRICS_GZIP("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
				+ "text/plain;version=0.0.4;q=0.5,*/*;q=0.1", true),

		TEXT_GZIP("text/plain;version=0.0.4;q=1,*/*;q=0.1", true),

		TEXT("text/plain;version=0.0.4;q=1,*/*;q=0.1", false);

		private final String accept;

		private final boolean gzip;

		Variant(String accept, boolean gzip) {
			this.accept = accept;
			this.gzip = gzip;
		}

	}

	private record Exchange(Variant variant, int status, @Nullable Throwable failure, long uncompressedBytes) {

		String outcome() {
			if (this.failure == null) {
				return Integer.toString(this.status);
			}
			Throwable cause = (this.failure.getCause() != null) ? this.failure.getCause() : this.failure;
			return (cause instanceof TimeoutException || cause instanceof HttpTimeoutException) ? "hung"
					: cause.getClass().getSimpleName();
		}

	}

	/**
	 * Counts the bytes of a body without keeping it, but for its last four: the size of
	 * the uncompressed data in a gzip trailer.
	 */
	private static final class CountingSubscriber implements Flow.Subscriber<List<ByteBuffer>> {

		private final byte[] last = new byte[4];

		// Written by the client's thread before the response completes, read after.
		private volatile long received;

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(List<ByteBuffer> buffers) {
			for (ByteBuffer buffer : buffers) {
				int length = buffer.remaining();
				this.received += length;
				if (length >= this.last.length) {
					buffer.get(buffer.limit() - this.last.length, this.last);
					continue;
				}
				for (int i = 0; i < length; i++) {
					System.arraycopy(this.last, 1, this.last, 0, this.last.length - 1);
					this.last[this.last.length - 1] = buffer.get(buffer.position() + i);
				}
			}
		}

		long gzipTrailerSize() {
			return (this.last[0] & 0xFFL) | (this.last[1] & 0xFFL) << 8 | (this.last[2] & 0xFFL) << 16
					| (this.last[3] & 0xFFL) << 24;
		}

		@Override
		public void onError(Throwable throwable) {
		}

		@Override
		public void onComplete() {
		}

	}

}

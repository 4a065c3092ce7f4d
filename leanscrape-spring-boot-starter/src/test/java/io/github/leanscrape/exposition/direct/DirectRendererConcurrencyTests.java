package io.github.leanscrape.exposition.direct;

import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.github.leanscrape.support.OwnCodeTests;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The direct path while the application registers, removes and records into meters: every
 * scrape is a valid exposition, and a scrape never holds up the threads that record.
 */
@Tag(OwnCodeTests.TAG)
class DirectRendererConcurrencyTests {

	private static final int SCRAPES = 1000;

	/**
	 * How long the scrapes may take, and how many must be done by then: the machine may
	 * be small and busy, and what counts is that every scrape done is valid.
	 */
	private static final Duration DEADLINE = Duration.ofSeconds(20);

	private static final int MINIMUM_SCRAPES = 250;

	/**
	 * Tag values, a few of which must be escaped.
	 */
	private static final String[] VALUES = { "a", "b", "c", "/api/{id}", "GET", "200", "a\"b", "back\\slash",
			"new\nline", "zürich" };

	@TempDir
	Path temp;

	@Test
	@Timeout(60)
	void everyScrapeIsValidWhileMetersComeAndGo() throws Exception {
		PrometheusMeterRegistry registry = registry();
		DirectRenderer renderer = renderer(registry);
		ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, 1 << 20);
		// What the gauges watch: Micrometer holds it weakly, this test strongly.
		AtomicLong watched = new AtomicLong(42);
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger scrapes = new AtomicInteger();
		AtomicInteger completed = new AtomicInteger();
		AtomicInteger promtoolRuns = new AtomicInteger();
		AtomicInteger springBootsFailures = new AtomicInteger();
		AtomicLong registrations = new AtomicLong();
		AtomicLong removals = new AtomicLong();
		AtomicLong recordings = new AtomicLong();
		ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
		// A name the direct path leaves to the registry's collector (its meters' tag
		// keys differ), written inside direct scrapes, and never removed (see below).
		for (String batch : VALUES) {
			Counter.builder("batch.active").tag("batch", batch).register(registry);
		}
		Counter.builder("batch.active").tag("queue", "q").register(registry);
		long deadline = System.nanoTime() + DEADLINE.toNanos();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			threads.add(worker("mutator-" + i, stop, failures, () -> {
				ThreadLocalRandom random = ThreadLocalRandom.current();
				if (random.nextInt(100) < 55) {
					register(registry, random, watched);
					registrations.incrementAndGet();
				}
				else {
					List<Meter> meters = registry.getMeters();
					Meter meter = meters.get(random.nextInt(meters.size()));
					// These counters stay: the registry's own collector, which writes
					// them, can see a meter removed and registered again during one
					// collection twice (its map's iteration is weakly consistent) and
					// fail the scrape, with or without the direct path.
					if (!meter.getId().getName().equals("batch.active")) {
						registry.remove(meter);
						removals.incrementAndGet();
					}
				}
				if (random.nextInt(16) == 0) {
					LockSupport.parkNanos(50_000);
				}
			}));
		}
		for (int i = 0; i < 2; i++) {
			threads.add(worker("recorder-" + i, stop, failures, () -> {
				ThreadLocalRandom random = ThreadLocalRandom.current();
				List<Meter> meters = registry.getMeters();
				for (int j = 0; j < 100 && !meters.isEmpty(); j++) {
					record(meters.get(random.nextInt(meters.size())), random);
					recordings.incrementAndGet();
				}
				// Busy, not greedy: the scrapers share two cores with four such threads.
				LockSupport.parkNanos(50_000);
			}));
		}
		for (int i = 0; i < 2; i++) {
			threads.add(worker("scraper-" + i, stop, failures, () -> {
				int scrape = scrapes.getAndIncrement();
				if (scrape >= SCRAPES || System.nanoTime() > deadline) {
					stop.set(true);
					return;
				}
				PrometheusOutputFormat format = (scrape % 2 == 0) ? PrometheusOutputFormat.CONTENT_TYPE_004
						: PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100;
				byte[] body;
				try {
					body = scrape(renderer, pool, format);
				}
				catch (RuntimeException ex) {
					if (!failedInSpringBootsPath(ex)) {
						throw ex;
					}
					// Micrometer 1.18.0-M1's collector may give one label set twice
					// while a meter of the same name and tags is removed and added again:
					// client_java then fails the scrape, Spring Boot's endpoint too.
					springBootsFailures.incrementAndGet();
					completed.incrementAndGet();
					return;
				}
				Exposition.check(body, format);
				if (scrape % 100 == 0 && format == PrometheusOutputFormat.CONTENT_TYPE_004) {
					checkWithPromtool(body, "scrape-" + scrape);
					promtoolRuns.incrementAndGet();
				}
				completed.incrementAndGet();
			}));
		}
		threads.forEach(Thread::start);
		try {
			for (Thread thread : threads) {
				thread.join(TimeUnit.SECONDS.toMillis(30));
				assertThat(thread.isAlive()).as(thread.getName() + " still running").isFalse();
			}
		}
		finally {
			stop.set(true);
		}
		if (!failures.isEmpty()) {
			AssertionError error = new AssertionError(failures.size() + " failure(s); the first one is the cause",
					failures.peek());
			failures.stream().skip(1).limit(5).forEach(error::addSuppressed);
			throw error;
		}
		int done = completed.get();
		System.out.printf(
				"%d scrapes (%d by the direct path, %d linted by promtool) while %d meters were "
						+ "registered, %d removed, %d values recorded%n",
				done, renderer.directScrapes(), promtoolRuns.get(), registrations.get(), removals.get(),
				recordings.get());
		assertThat(done).as("scrapes within %s", DEADLINE).isGreaterThanOrEqualTo(MINIMUM_SCRAPES);
		assertThat(promtoolRuns.get()).isPositive();
		assertThat(registrations.get()).isPositive();
		assertThat(removals.get()).isPositive();
		assertThat(recordings.get()).isPositive();
		// A scrape that comes while the registry adds or drops a whole Prometheus name
		// may see its collector in one of the registry's two maps and not yet in the
		// other: it then goes whole to the reference path, which is always exact. Rare,
		// not never.
		assertThat(renderer.directScrapes() + renderer.wholeScrapeFallbacks()).isEqualTo(done);
		assertThat(springBootsFailures.get()).as("scrapes that Spring Boot's own path failed")
			.isLessThanOrEqualTo(done / 100);
		assertThat(renderer.directScrapes()).as("scrapes written by the direct path")
			.isGreaterThanOrEqualTo(done * 9L / 10);
		assertThat(renderer.familyFallbacks()).as("reference families written inside direct scrapes").isPositive();
		assertThat(pool.chunksInUse()).as("chunks not given back").isZero();
		// At rest, the last word: the same bytes as the registry's own scrape, and
		// promtool's.
		byte[] text = scrape(renderer, pool, PrometheusOutputFormat.CONTENT_TYPE_004);
		Exposition.check(text, PrometheusOutputFormat.CONTENT_TYPE_004);
		assertThat(new String(text, StandardCharsets.UTF_8)).isEqualTo(registry.scrape());
		checkWithPromtool(text, "at-rest");
		Reference.reachabilityFence(watched);
	}

	@Test
	@Timeout(60)
	void aScrapeStalledInAValueHoldsUpNeitherRecordingNorRegistration() throws Exception {
		PrometheusMeterRegistry registry = registry();
		DirectRenderer renderer = renderer(registry);
		ChunkPool pool = new ChunkPool(ChunkPool.DEFAULT_CHUNK_SIZE, 1 << 20);
		CountDownLatch reading = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Object watched = new Object();
		Gauge.builder("stalled.value", watched, (object) -> {
			reading.countDown();
			try {
				// Bounded: a test gone wrong must not hang forever.
				release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return 7.0;
		}).register(registry);
		Counter counter = Counter.builder("orders.placed").tag("region", "eu").register(registry);
		Timer timer = Timer.builder("http.calls")
			.tag("uri", "/")
			.serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(100))
			.register(registry);
		Counter doomed = Counter.builder("orders.placed").tag("region", "us").register(registry);
		ExecutorService executor = Executors.newCachedThreadPool();
		try {
			Future<byte[]> stalled = executor
				.submit(() -> scrape(renderer, pool, PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100));
			assertThat(reading.await(10, TimeUnit.SECONDS)).as("the scrape reached the gauge").isTrue();

			// While the scrape waits inside the gauge: record, register, remove, and
			// scrape what does not need that gauge.
			within(executor, "recording into existing meters", () -> {
				for (int i = 0; i < 1000; i++) {
					counter.increment();
					timer.record(Duration.ofMillis(i % 200));
				}
				return null;
			});
			within(executor, "registering new meters", () -> {
				for (int i = 0; i < 200; i++) {
					Counter.builder("orders.placed").tag("region", "r" + i).register(registry).increment();
					Timer.builder("jobs.duration")
						.tag("job", "j" + i)
						.publishPercentileHistogram()
						.register(registry)
						.record(Duration.ofMillis(i));
					DistributionSummary.builder("payload.size").tag("kind", "k" + i).register(registry).record(i);
				}
				return null;
			});
			within(executor, "removing a meter", () -> registry.remove(doomed));
			byte[] filtered = within(executor, "a scrape of other names", () -> scrape(renderer, pool,
					PrometheusOutputFormat.CONTENT_TYPE_004, Set.of("orders_placed", "jobs_duration_seconds")));
			Exposition.check(filtered, PrometheusOutputFormat.CONTENT_TYPE_004);
			assertThat(new String(filtered, StandardCharsets.UTF_8))
				.contains("orders_placed_total{region=\"r199\"} 1.0\n")
				.doesNotContain("region=\"us\"")
				.contains("jobs_duration_seconds_count{job=\"j199\"} 1\n");
			assertThat(stalled.isDone()).as("the stalled scrape is still waiting").isFalse();

			release.countDown();
			byte[] body = stalled.get(10, TimeUnit.SECONDS);
			Exposition.check(body, PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100);
			assertThat(new String(body, StandardCharsets.UTF_8)).contains("stalled_value 7.0\n");
		}
		finally {
			release.countDown();
			executor.shutdownNow();
			assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(counter.count()).isEqualTo(1000);
		assertThat(timer.count()).isEqualTo(1000);
		byte[] after = scrape(renderer, pool, PrometheusOutputFormat.CONTENT_TYPE_004);
		Exposition.check(after, PrometheusOutputFormat.CONTENT_TYPE_004);
		assertThat(new String(after, StandardCharsets.UTF_8)).isEqualTo(registry.scrape());
		assertThat(pool.chunksInUse()).isZero();
		Reference.reachabilityFence(watched);
	}

	private static <T> T within(ExecutorService executor, String what, Callable<T> action) throws Exception {
		Future<T> future = executor.submit(action);
		try {
			return future.get(10, TimeUnit.SECONDS);
		}
		catch (TimeoutException ex) {
			future.cancel(true);
			return fail(what + " did not finish within 10 s while a scrape was waiting for a value");
		}
		catch (ExecutionException ex) {
			throw new AssertionError(what + " failed", ex.getCause());
		}
	}

	private static PrometheusMeterRegistry registry() {
		return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT, new PrometheusRegistry(), new FrozenClock());
	}

	private static DirectRenderer renderer(PrometheusMeterRegistry registry) {
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		return new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties,
				new ReferenceRenderer(registry.getPrometheusRegistry(), properties), Long.MAX_VALUE);
	}

	/**
	 * Register a meter of one of a few kinds, each name always with the same kind, tag
	 * keys and distribution settings (as Prometheus wants), with random tag values.
	 */
	private static void register(MeterRegistry registry, ThreadLocalRandom random, AtomicLong watched) {
		String a = VALUES[random.nextInt(VALUES.length)];
		String b = VALUES[random.nextInt(VALUES.length)];
		switch (random.nextInt(8)) {
			case 0 -> Counter.builder("orders.placed").tag("region", a).tag("status", b).register(registry);
			case 1 -> Counter.builder("cache.gets")
				.description("Cache lookups")
				.tag("cache", a)
				.tag("result", b)
				.register(registry);
			case 2 -> Gauge.builder("queue.depth", watched, AtomicLong::get).tag("queue", a).register(registry);
			case 3 -> Gauge.builder("pool.active", watched, AtomicLong::get)
				.description("Active \"connections\"")
				.tag("pool", a)
				.tag("zone", b)
				.register(registry);
			case 4 -> Timer.builder("http.calls")
				.tag("method", a)
				.tag("uri", b)
				.serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(10), Duration.ofMillis(100))
				.register(registry);
			case 5 -> Timer.builder("db.query").description("Queries").tag("table", a).register(registry);
			case 6 -> Timer.builder("rpc.latency").tag("peer", a).publishPercentiles(0.5, 0.99).register(registry);
			default -> DistributionSummary.builder("payload.size")
				.tag("kind", a)
				.serviceLevelObjectives(100, 1000, 10_000)
				.register(registry);
		}
	}

	private static void record(Meter meter, ThreadLocalRandom random) {
		if (meter instanceof Counter counter) {
			counter.increment(random.nextInt(3));
		}
		else if (meter instanceof Timer timer) {
			timer.record(random.nextLong(200_000), TimeUnit.MICROSECONDS);
		}
		else if (meter instanceof DistributionSummary summary) {
			summary.record(random.nextInt(20_000));
		}
		else if (meter instanceof LongTaskTimer longTaskTimer) {
			LongTaskTimer.Sample sample = longTaskTimer.start();
			// A few tasks stay active; each active one costs every later scrape a little.
			if (random.nextInt(1000) != 0) {
				sample.stop();
			}
		}
	}

	/**
	 * Return whether a scrape failed in client_java, called by the reference path: Spring
	 * Boot's own code path, whose failures are its endpoint's too.
	 */
	private static boolean failedInSpringBootsPath(Throwable failure) {
		StackTraceElement[] frames = failure.getStackTrace();
		if (frames.length == 0 || !frames[0].getClassName().startsWith("io.prometheus.")) {
			return false;
		}
		for (StackTraceElement frame : frames) {
			if (frame.getClassName().equals(ReferenceRenderer.class.getName())) {
				return true;
			}
		}
		return false;
	}

	private static byte[] scrape(DirectRenderer renderer, ChunkPool pool, PrometheusOutputFormat format)
			throws IOException {
		return scrape(renderer, pool, format, null);
	}

	private static byte[] scrape(DirectRenderer renderer, ChunkPool pool, PrometheusOutputFormat format,
			@Nullable Set<String> includedNames) throws IOException {
		ChunkedOutput buffer = new ChunkedOutput(pool, BodyKind.of(format, null), 0);
		try {
			renderer.render(format, includedNames, buffer);
		}
		catch (IOException | RuntimeException ex) {
			buffer.discard();
			throw ex;
		}
		PooledBody body = buffer.toBody();
		try {
			return body.toByteArray();
		}
		finally {
			body.release();
		}
	}

	private Thread worker(String name, AtomicBoolean stop, ConcurrentLinkedQueue<Throwable> failures,
			ThrowingRunnable step) {
		Thread thread = new Thread(() -> {
			try {
				while (!stop.get()) {
					step.run();
				}
			}
			catch (Throwable ex) {
				failures.add(ex);
				stop.set(true);
			}
		}, name);
		thread.setDaemon(true);
		return thread;
	}

	/**
	 * Lint a text body with Prometheus's own {@code promtool check metrics}: it must
	 * parse (exit code 1 is a parse error; 3, lint problems such as a counter without
	 * {@code _total}, is tolerated as it concerns names, not the format).
	 */
	private void checkWithPromtool(byte[] body, String name) throws IOException, InterruptedException {
		Path input = Files.write(this.temp.resolve(name + ".txt"), body);
		Path output = this.temp.resolve(name + ".promtool");
		Process process = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true)
			.redirectInput(input.toFile())
			.redirectOutput(output.toFile())
			.start();
		try {
			if (!process.waitFor(30, TimeUnit.SECONDS)) {
				fail("promtool check metrics did not finish in 30 s");
			}
		}
		finally {
			process.destroyForcibly();
			process.waitFor(10, TimeUnit.SECONDS);
		}
		int exit = process.exitValue();
		if (exit != 0 && exit != 3) {
			fail("promtool check metrics exited with " + exit + ": " + Files.readString(output) + "\nbody:\n"
					+ Exposition.excerpt(body));
		}
	}

	@FunctionalInterface
	private interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * A small validating reader of text 0.0.4 and OpenMetrics 1.0.0 bodies: metadata
	 * blocks, each followed by the samples of its family, families in name order and each
	 * once, no series twice, every line well formed, OpenMetrics ending with
	 * {@code # EOF}.
	 */
	static final class Exposition {

		private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

		private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

		private static final Pattern VALUE = Pattern.compile("NaN|[+-]Inf|[-+]?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

		private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "gaugehistogram",
				"info", "stateset", "unknown", "untyped");

		private Exposition() {
		}

		static void check(byte[] body, PrometheusOutputFormat format) {
			try {
				checkLines(new String(body, StandardCharsets.UTF_8),
						format == PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError(
						format + " body is not a valid exposition: " + ex.getMessage() + "\nbody:\n" + excerpt(body),
						ex);
			}
		}

		private static void checkLines(String text, boolean openMetrics) {
			if (openMetrics) {
				assertThat(text).endsWith("# EOF\n");
				text = text.substring(0, text.length() - "# EOF\n".length());
			}
			assertThat(text).doesNotContain("# EOF");
			if (text.isEmpty()) {
				return;
			}
			assertThat(text).endsWith("\n");
			String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
			Set<String> families = new HashSet<>();
			Set<String> series = new HashSet<>();
			String previousFamily = null;
			int i = 0;
			while (i < lines.length) {
				// A metadata block: HELP and TYPE (and UNIT in OpenMetrics) of one name.
				Map<String, String> metadata = new HashMap<>();
				String metadataName = null;
				while (i < lines.length && lines[i].startsWith("#")) {
					String[] parts = lines[i].split(" ", 4);
					assertThat(parts.length).as("line %d: %s", i, lines[i]).isGreaterThanOrEqualTo(3);
					assertThat(parts[1]).as("line %d: %s", i, lines[i]).isIn("HELP", "TYPE", "UNIT");
					if (parts[1].equals("TYPE") && openMetrics) {
						assertThat(metadata).as("line %d: TYPE comes first in OpenMetrics", i).isEmpty();
					}
					if (parts[1].equals("HELP") && !openMetrics) {
						assertThat(metadata).as("line %d: HELP comes first in text", i).isEmpty();
					}
					assertThat(metadata.put(parts[1], (parts.length > 3) ? parts[3] : ""))
						.as("line %d repeats %s: %s", i, parts[1], lines[i])
						.isNull();
					if (metadataName != null) {
						assertThat(parts[2]).as("line %d: one name per block", i).isEqualTo(metadataName);
					}
					metadataName = parts[2];
					if (parts[1].equals("TYPE")) {
						assertThat(parts.length).as("line %d: %s", i, lines[i]).isEqualTo(4);
						assertThat(parts[3]).as("line %d: %s", i, lines[i]).isIn(TYPES);
					}
					i++;
				}
				assertThat(metadataName).as("line %d: samples without metadata: %s", i, lines[i]).isNotNull();
				String type = metadata.get("TYPE");
				assertThat(type).as("line %d: %s has no TYPE", i, metadataName).isNotNull();
				assertThat(NAME.matcher(metadataName).matches()).as(metadataName).isTrue();
				// client_java sorts families by name; in text, a counter's metadata
				// carries _total, which is not part of that name.
				String family = (!openMetrics && type.equals("counter") && metadataName.endsWith("_total"))
						? metadataName.substring(0, metadataName.length() - "_total".length()) : metadataName;
				assertThat(families.add(family)).as("family %s appears twice", family).isTrue();
				if (previousFamily != null) {
					assertThat(family.compareTo(previousFamily)).as("family %s after %s", family, previousFamily)
						.isPositive();
				}
				previousFamily = family;
				Set<String> sampleNames = sampleNames(metadataName, type, openMetrics);
				int samples = 0;
				while (i < lines.length && !lines[i].startsWith("#")) {
					String key = sample(lines[i], i);
					String name = key.substring(0, key.indexOf(' '));
					assertThat(sampleNames).as("line %d: %s in family %s (%s)", i, lines[i], metadataName, type)
						.contains(name);
					assertThat(series.add(key)).as("line %d: series written twice: %s", i, lines[i]).isTrue();
					samples++;
					i++;
				}
				assertThat(samples).as("family %s has no samples", metadataName).isPositive();
			}
		}

		private static Set<String> sampleNames(String name, String type, boolean openMetrics) {
			return switch (type) {
				case "counter" -> openMetrics ? Set.of(name + "_total", name + "_created") : Set.of(name);
				case "histogram" -> Set.of(name + "_bucket", name + "_count", name + "_sum", name + "_created");
				case "gaugehistogram" -> Set.of(name + "_bucket", name + "_gcount", name + "_gsum");
				case "summary" -> Set.of(name, name + "_count", name + "_sum", name + "_created");
				case "info" -> Set.of(name + "_info");
				default -> Set.of(name);
			};
		}

		/**
		 * Parse a sample line: name, optional labels, one space, a value.
		 * @return the sample name and its labels as written, separated by a space
		 */
		private static String sample(String line, int number) {
			int end = 0;
			while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
				end++;
			}
			String name = line.substring(0, end);
			assertThat(NAME.matcher(name).matches()).as("line %d: sample name in %s", number, line).isTrue();
			int position = end;
			Set<String> labelNames = new HashSet<>();
			if (position < line.length() && line.charAt(position) == '{') {
				position++;
				while (true) {
					int equals = line.indexOf('=', position);
					assertThat(equals).as("line %d: label in %s", number, line).isPositive();
					String labelName = line.substring(position, equals);
					assertThat(LABEL_NAME.matcher(labelName).matches()).as("line %d: label name %s", number, labelName)
						.isTrue();
					assertThat(labelNames.add(labelName)).as("line %d: label %s twice", number, labelName).isTrue();
					assertThat(line.charAt(equals + 1)).as("line %d: quote in %s", number, line).isEqualTo('"');
					position = equals + 2;
					while (line.charAt(position) != '"') {
						if (line.charAt(position) == '\\') {
							assertThat(line.charAt(position + 1)).as("line %d: escape in %s", number, line)
								.isIn('\\', '"', 'n');
							position++;
						}
						position++;
					}
					position++;
					char next = line.charAt(position++);
					if (next == '}') {
						break;
					}
					assertThat(next).as("line %d: separator in %s", number, line).isEqualTo(',');
				}
			}
			String labels = line.substring(end, position);
			assertThat(line.charAt(position)).as("line %d: space before the value in %s", number, line).isEqualTo(' ');
			String value = line.substring(position + 1);
			assertThat(VALUE.matcher(value).matches()).as("line %d: value %s", number, value).isTrue();
			if (name.endsWith("_bucket")) {
				assertThat(labelNames).as("line %d: bucket without le", number).contains("le");
			}
			return name + " " + labels;
		}

		static String excerpt(byte[] body) {
			String text = new String(body, StandardCharsets.UTF_8);
			return (text.length() <= 20_000) ? text : text.substring(0, 20_000) + "\n[...]";
		}

	}

}

package io.github.leanscrape.exposition.direct;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

import com.github.luben.zstd.Zstd;
import io.github.leanscrape.compression.GzipEncoder;
import io.github.leanscrape.compression.ZstdEncoder;
import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.RenderInputs;
import io.github.leanscrape.exposition.reference.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusDurationNamingConvention;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusNamingConvention;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of random registries, each scraped by the direct path and by Spring Boot's
 * endpoint, in all three formats, with and without a name filter, before and after random
 * removals: the bytes must be equal, or both must fail. The registries run what real
 * services run, at random: tracing (exemplars, on all metric types or not), collectors
 * registered outside Micrometer (some with the name of a meter), descriptions off, a
 * naming convention of the application's own, created timestamps in the text formats, a
 * clock that moves between scrapes (max and percentile windows rotate, long task timers
 * grow, meters registered later have other created timestamps) and values recorded again
 * between scrapes. The seed of a failing registry is in the failure message;
 * {@code -Dleanscrape.random.seed=N} replays it alone.
 */
class RandomRegistryDifferentialTests {

	private static final int REGISTRIES = Integer.getInteger("leanscrape.random.registries", 3000);

	private static final String[] NAMES = { "http.requests", "http.requests", "jobs", "queue.size", "a", "a.b", "a_b",
			"cache.gets", "x.total", "sessions.info", "db", "db.max", "db_max", "1st.metric", "temp.c", "net-bytes",
			"api:calls", "process.uptime" };

	private static final String[] KEYS = { "uri", "method", "status", "a.b", "a_b", "__x", "region", "z", "le",
			"quantile", "statistic", "Mixed.Case", "zone", "k" };

	private static final String[] VALUES = { "/", "/api/{id}", "GET", "200", "", "a\"b", "back\\slash", "new\nline",
			"zürich", "東京", "😀", "x y", "0", "10", "9", "-", "a,b", "}", "carriage\rreturn", "tab\there" };

	private static final double[] SPECIAL = { 0, -0.0, 1, 0.5, 1e-5, 1e7, 9_999_999, 12_345_678.9, Double.NaN,
			Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 2e23, -3.25,
			1.0 / 3, 100 };

	private long directScrapes;

	private long referenceScrapes;

	private long referenceFamilies;

	private long scrapesWithExemplars;

	private long scrapesWithCreated;

	/**
	 * Every body the direct path writes is compressed too, by encoders that live as long
	 * as the test, so that each body is compressed against the last one: its unchanged
	 * segments are copied compressed, the others compressed, and the result must decode
	 * to the body.
	 */
	private final ChunkPool compressionPool = new ChunkPool(512, 1 << 20);

	private final GzipEncoder gzip = new GzipEncoder(this.compressionPool, 1);

	private final ZstdEncoder zstd = new ZstdEncoder(this.compressionPool, 1, true);

	private long compressedBodies;

	/**
	 * The last body of each kind a registry's renderer wrote, offered to the next
	 * rendering of that kind to copy unchanged blocks from, as the scraper offers the
	 * body its encoders keep.
	 */
	private final Map<BodyKind, PooledBody> lastBodies = new HashMap<>();

	private final ChunkPool bodyPool = new ChunkPool(1024, 1 << 20);

	private long copiedBlocks;

	private long copiedAcrossFormats;

	@Test
	void directPathEqualsSpringBootsEndpointOnRandomRegistries() {
		Long only = Long.getLong("leanscrape.random.seed");
		long master = System.nanoTime();
		Random seeds = new Random(master);
		int registries = (only != null) ? 1 : REGISTRIES;
		for (int i = 0; i < registries; i++) {
			long seed = (only != null) ? only : seeds.nextLong();
			try {
				checkRegistry(seed);
			}
			catch (AssertionError | RuntimeException ex) {
				throw new AssertionError("Registry " + i + " differs; replay with -Dleanscrape.random.seed=" + seed
						+ " (master seed " + master + ")", ex);
			}
		}
		if (only == null) {
			// The comparison means something only if the direct path wrote most scrapes,
			// and the per-name fallback was exercised too.
			assertThat(this.directScrapes).isGreaterThan(9 * this.referenceScrapes);
			assertThat(this.referenceFamilies).isPositive();
			assertThat(this.scrapesWithExemplars).as("scrapes with exemplars").isPositive();
			assertThat(this.scrapesWithCreated).as("text scrapes with created timestamps").isPositive();
			assertThat(this.copiedAcrossFormats).as("blocks copied from the other text format's body").isPositive();
		}
		assertThat(this.copiedBlocks).as("blocks copied from the last body").isPositive();
		// Bodies were compressed segment by segment (segment reuse is KeptBodiesTests').
		assertThat(this.gzip.segmentsCompressed()).as("gzip segments").isGreaterThan(this.compressedBodies);
		assertThat(this.zstd.segmentsCompressed()).as("zstd frames").isGreaterThan(this.compressedBodies);
		this.gzip.close();
		this.zstd.close();
		assertThat(this.compressionPool.chunksInUse()).isZero();
	}

	private void checkRegistry(long seed) {
		Random random = new Random(seed);
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		boolean tracing = random.nextInt(3) == 0;
		if (tracing) {
			properties.setProperty("io.prometheus.exporter.exemplarsOnAllMetricTypes",
					String.valueOf(random.nextBoolean()));
			// Sample every recording, so that many slots fill.
			properties.setProperty("io.prometheus.exemplars.sampleIntervalMilliseconds", "1");
			properties.setProperty("io.prometheus.exemplars.minRetentionPeriodSeconds", "1");
		}
		if (random.nextInt(3) == 0) {
			properties.setProperty("io.prometheus.exporter.includeCreatedTimestamps", "true");
			properties.setProperty("io.prometheus.exporter.prometheusTimestampsInMs",
					String.valueOf(random.nextBoolean()));
		}
		PrometheusConfig config = new RandomConfig(properties, random.nextInt(5) != 0);
		MockClock movingClock = (random.nextInt(3) == 0) ? new MockClock() : null;
		Clock clock = (movingClock != null) ? movingClock : new FrozenClock();
		PrometheusMeterRegistry registry = tracing
				? new PrometheusMeterRegistry(config, new PrometheusRegistry(), clock, new RandomSpanContext(random))
				: new PrometheusMeterRegistry(config, new PrometheusRegistry(), clock);
		if (random.nextInt(4) == 0) {
			registry.config().commonTags("app", pick(random, VALUES));
		}
		if (random.nextInt(6) == 0) {
			registry.config().namingConvention(new PrometheusDurationNamingConvention());
		}
		else if (random.nextInt(8) == 0) {
			registry.config().namingConvention(new ApplicationNamingConvention());
		}
		if (random.nextInt(4) == 0) {
			registry.config().meterFilter(MeterFilter.deny((id) -> id.getName().startsWith("jobs")));
		}
		if (random.nextInt(4) == 0) {
			registry.config().meterFilter(MeterFilter.renameTag("http.requests", "uri", "path"));
		}
		ReferenceRenderer reference = new ReferenceRenderer(registry.getPrometheusRegistry(), properties);
		boolean createFirst = random.nextBoolean();
		DirectRenderer direct = createFirst
				? new DirectRenderer(registry, config, properties, reference, Long.MAX_VALUE) : null;
		if (random.nextInt(4) == 0) {
			registerForeignCollector(registry, random);
		}
		List<Object> strong = new ArrayList<>();
		List<Meter> meters = new ArrayList<>();
		int count = 1 + random.nextInt(25);
		for (int i = 0; i < count; i++) {
			try {
				Meter meter = register(registry, random, strong);
				if (meter != null) {
					meters.add(meter);
				}
			}
			catch (RuntimeException ex) {
				// Some random ids are invalid for Micrometer itself (an empty tag key,
				// say).
			}
		}
		if (direct == null) {
			direct = new DirectRenderer(registry, config, properties, reference, Long.MAX_VALUE);
		}
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
		compareAll(direct, boot, random, registry);
		if (movingClock != null) {
			// Milliseconds too: meters registered from now on have other created
			// timestamps.
			movingClock.add(Duration.ofMillis(1 + random.nextInt(300_000)));
		}
		recordAgain(registry, random);
		compareAll(direct, boot, random, registry);
		int removals = random.nextInt(meters.size() + 1);
		for (int i = 0; i < removals; i++) {
			registry.remove(meters.get(random.nextInt(meters.size())));
		}
		for (int i = 0; i < random.nextInt(4); i++) {
			try {
				register(registry, random, strong);
			}
			catch (RuntimeException ex) {
				// as above
			}
		}
		compareAll(direct, boot, random, registry);
		assertThat(strong).isNotNull();
		for (PooledBody last : this.lastBodies.values()) {
			last.release();
		}
		this.lastBodies.clear();
		assertThat(this.bodyPool.chunksInUse()).isZero();
		this.copiedBlocks += direct.copiedBlocks();
		this.directScrapes += direct.directScrapes();
		this.referenceScrapes += direct.wholeScrapeFallbacks();
		this.referenceFamilies += direct.familyFallbacks();
	}

	private void compareAll(DirectRenderer direct, PrometheusScrapeEndpoint boot, Random random,
			PrometheusMeterRegistry registry) {
		Set<String> names = new HashSet<>();
		for (Meter meter : registry.getMeters()) {
			if (random.nextBoolean()) {
				String name = meter.getId().getConventionName(registry.config().namingConvention());
				names.add(random.nextBoolean() ? name : name + "_max");
			}
		}
		for (PrometheusOutputFormat format : PrometheusOutputFormat.values()) {
			compare(direct, boot, format, null, random.nextBoolean());
			compare(direct, boot, format, names, random.nextBoolean());
		}
	}

	/**
	 * Render a scrape offered the last body of its kind, or, where asked and one is
	 * there, the last body of the other text format with the same names, as the scraper
	 * offers it to a kind with no body of its own.
	 */
	private void compare(DirectRenderer direct, PrometheusScrapeEndpoint boot, PrometheusOutputFormat format,
			@Nullable Set<String> names, boolean otherFormat) {
		byte[] expected;
		RuntimeException bootFailure = null;
		try {
			expected = boot.scrape(format, names).getBody();
		}
		catch (RuntimeException ex) {
			expected = null;
			bootFailure = ex;
		}
		BodyKind kind = BodyKind.of(format, names);
		ChunkedOutput buffer = new ChunkedOutput(this.bodyPool, kind, 0);
		PooledBody last = this.lastBodies.remove(kind);
		PooledBody offered = last;
		if (otherFormat && format != PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF) {
			PooledBody other = this.lastBodies.get(BodyKind.of((format == PrometheusOutputFormat.CONTENT_TYPE_004)
					? PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100 : PrometheusOutputFormat.CONTENT_TYPE_004,
					names));
			offered = (other != null) ? other : last;
		}
		long copiedBefore = direct.copiedBlocks();
		byte[] actual;
		try {
			direct.render(format, names, buffer, new RenderInputs(offered, false));
			if (offered != last) {
				this.copiedAcrossFormats += direct.copiedBlocks() - copiedBefore;
			}
			PooledBody body = buffer.toBody();
			actual = body.toByteArray();
			this.lastBodies.put(kind, body);
		}
		catch (Exception ex) {
			buffer.discard();
			if (expected != null) {
				throw new AssertionError(
						"Direct path failed where Spring Boot's endpoint did not, " + format + " " + names, ex);
			}
			return;
		}
		finally {
			if (last != null) {
				last.release();
			}
		}
		if (expected == null) {
			throw new AssertionError(
					"Spring Boot's endpoint failed (" + bootFailure + ") where the direct path did not, " + format + " "
							+ names + ":\n" + new String(actual, StandardCharsets.UTF_8));
		}
		SpringBootsBytes.assertSameBytes(actual, expected, format, names);
		assertCompressedBodiesDecode(actual);
		String text = new String(expected, StandardCharsets.UTF_8);
		if (text.contains(" # {")) {
			this.scrapesWithExemplars++;
		}
		if (format != PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF && text.contains("_created ")) {
			this.scrapesWithCreated++;
		}
	}

	/**
	 * Compress a body in segments that end after a line once 300 bytes were written, as
	 * the renderer ends them after families, and decode it again.
	 */
	private void assertCompressedBodiesDecode(byte[] plain) {
		BodyKind kind = BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null);
		ChunkedOutput output = new ChunkedOutput(this.compressionPool, kind, plain.length);
		for (byte b : plain) {
			output.write(b);
			if (b == '\n') {
				output.endSegment(300);
			}
		}
		PooledBody body = output.toBody();
		try {
			this.compressedBodies++;
			PooledBody gzipped = this.gzip.encode(body, kind.encoded(ContentCoding.GZIP), 0, true, null, null).body();
			try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped.toByteArray()))) {
				assertThat(in.readAllBytes()).as("a gzip body decoded").isEqualTo(plain);
			}
			finally {
				gzipped.release();
			}
			PooledBody zstdBody = this.zstd.encode(body, kind.encoded(ContentCoding.ZSTD), 0, true, null, null).body();
			try {
				assertThat(Zstd.decompress(zstdBody.toByteArray(), plain.length)).as("a zstd body decoded")
					.isEqualTo(plain);
			}
			finally {
				zstdBody.release();
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			body.release();
		}
	}

	private Meter register(PrometheusMeterRegistry registry, Random random, List<Object> strong) {
		String name = pick(random, NAMES);
		Tags tags = Tags.empty();
		int tagCount = random.nextInt(4);
		for (int i = 0; i < tagCount; i++) {
			tags = tags.and(pick(random, KEYS), pick(random, VALUES));
		}
		String description = switch (random.nextInt(5)) {
			case 0 -> null;
			case 1 -> "";
			case 2 -> "Help with \"quotes\", back\\slash and\nnewline";
			default -> "Description of " + name;
		};
		String baseUnit = (random.nextInt(4) == 0) ? pick(random, new String[] { "bytes", "rows", "req/s" }) : null;
		switch (random.nextInt(12)) {
			case 0, 1 -> {
				Counter counter = Counter.builder(name)
					.tags(tags)
					.description(description)
					.baseUnit(baseUnit)
					.register(registry);
				counter.increment(Math.abs(value(random)));
				return counter;
			}
			case 2 -> {
				AtomicLong source = keep(strong, new AtomicLong(random.nextInt(1000) - 10));
				return FunctionCounter.builder(name, source, AtomicLong::doubleValue)
					.tags(tags)
					.description(description)
					.register(registry);
			}
			case 3, 4 -> {
				double[] holder = keep(strong, new double[] { value(random) });
				return Gauge.builder(name, holder, (h) -> h[0])
					.tags(tags)
					.description(description)
					.baseUnit(baseUnit)
					.register(registry);
			}
			case 5 -> {
				AtomicLong source = keep(strong, new AtomicLong(random.nextInt(100_000)));
				return TimeGauge.builder(name, source, TimeUnit.MILLISECONDS, AtomicLong::doubleValue)
					.tags(tags)
					.register(registry);
			}
			case 6 -> {
				MultiGauge gauge = keep(strong, MultiGauge.builder(name).tags(tags).register(registry));
				gauge.register(List.of(MultiGauge.Row.of(Tags.of("row", "1"), value(random)),
						MultiGauge.Row.of(Tags.of("row", "2"), value(random))), true);
				return null;
			}
			case 7 -> {
				Timer.Builder builder = Timer.builder(name).tags(tags).description(description);
				switch (random.nextInt(4)) {
					case 0 -> builder.publishPercentileHistogram();
					case 1 -> builder.publishPercentiles(0.95, 0.5);
					case 2 -> builder.serviceLevelObjectives(Duration.ofMillis(5), Duration.ofSeconds(1));
					default -> {
					}
				}
				Timer timer = builder.register(registry);
				for (int i = random.nextInt(6); i > 0; i--) {
					timer.record(Duration.ofNanos(random.nextInt(2_000_000_000)));
				}
				return timer;
			}
			case 8 -> {
				DistributionSummary.Builder builder = DistributionSummary.builder(name)
					.tags(tags)
					.description(description)
					.baseUnit(baseUnit)
					.scale(random.nextBoolean() ? 1 : 0.5);
				switch (random.nextInt(4)) {
					case 0 -> builder.publishPercentileHistogram();
					case 1 -> builder.publishPercentiles(0.99);
					case 2 -> builder.serviceLevelObjectives(1.5, 100);
					default -> {
					}
				}
				DistributionSummary summary = builder.register(registry);
				for (int i = random.nextInt(6); i > 0; i--) {
					summary.record(random.nextDouble() * 500);
				}
				return summary;
			}
			case 9 -> {
				AtomicLong source = keep(strong, new AtomicLong(random.nextInt(50)));
				return FunctionTimer.builder(name, source, AtomicLong::get, (s) -> s.get() * 1.5, TimeUnit.MILLISECONDS)
					.tags(tags)
					.description(description)
					.register(registry);
			}
			case 10 -> {
				LongTaskTimer.Builder builder = LongTaskTimer.builder(name).tags(tags).description(description);
				if (random.nextBoolean()) {
					builder.publishPercentileHistogram();
				}
				LongTaskTimer timer = builder.register(registry);
				keep(strong, timer.start());
				return timer;
			}
			default -> {
				List<Measurement> measurements = List.of(new Measurement(() -> 1.0, Statistic.COUNT),
						new Measurement(() -> 2.0, Statistic.VALUE));
				return Meter.builder(name, Meter.Type.OTHER, measurements).tags(tags).register(registry);
			}
		}
	}

	/**
	 * Record into the registry's counters, timers and summaries again, as traffic does
	 * between two scrapes.
	 */
	private static void recordAgain(PrometheusMeterRegistry registry, Random random) {
		for (Meter meter : registry.getMeters()) {
			if (random.nextBoolean()) {
				continue;
			}
			if (meter instanceof Counter counter) {
				counter.increment(random.nextInt(10));
			}
			else if (meter instanceof Timer timer) {
				timer.record(Duration.ofNanos(random.nextInt(2_000_000_000)));
			}
			else if (meter instanceof DistributionSummary summary) {
				summary.record(random.nextDouble() * 500);
			}
		}
	}

	/**
	 * Register a collector of client_java's beside Micrometer's: a family or two, one of
	 * them sometimes with the name of a meter.
	 */
	private static void registerForeignCollector(PrometheusMeterRegistry registry, Random random) {
		String name = (random.nextInt(4) == 0) ? "a" : "foreign_" + random.nextInt(3);
		String help = pick(random, new String[] { "", "Foreign \"help\"\twith\rodd\ncharacters", "Grüße" });
		String value = pick(random, VALUES);
		double number = value(random);
		long created = random.nextInt(3) * 1_234_567_891L;
		Collector gauge = () -> GaugeSnapshot.builder()
			.name(name)
			.help(help)
			.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
				.labels(Labels.of("source", value))
				.value(number)
				.build())
			.build();
		try {
			registry.getPrometheusRegistry().register(gauge);
			if (random.nextBoolean()) {
				registry.getPrometheusRegistry()
					.register((MultiCollector) () -> MetricSnapshots.of(CounterSnapshot.builder()
						.name("zz_foreign_events")
						.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
							.value(Math.abs(number))
							.createdTimestampMillis(created)
							.build())
						.build()));
			}
		}
		catch (RuntimeException ex) {
			// client_java refused the name: nothing foreign then.
		}
	}

	private static double value(Random random) {
		return (random.nextInt(3) == 0) ? SPECIAL[random.nextInt(SPECIAL.length)]
				: (random.nextDouble() - 0.3) * Math.pow(10, random.nextInt(12) - 4);
	}

	private static <T> T keep(List<Object> strong, T object) {
		strong.add(object);
		return object;
	}

	private static String pick(Random random, String[] values) {
		return values[random.nextInt(values.length)];
	}

	/**
	 * The registry's configuration: client_java's properties, and descriptions on or off.
	 */
	private static final class RandomConfig implements PrometheusConfig {

		private final Properties properties;

		private final boolean descriptions;

		RandomConfig(Properties properties, boolean descriptions) {
			this.properties = properties;
			this.descriptions = descriptions;
		}

		@Override
		public @Nullable String get(String key) {
			return null;
		}

		@Override
		public boolean descriptions() {
			return this.descriptions;
		}

		@Override
		public Properties prometheusProperties() {
			return this.properties;
		}

	}

	/**
	 * An application's own naming convention: Prometheus's, with a prefix.
	 */
	private static final class ApplicationNamingConvention extends PrometheusNamingConvention {

		@Override
		public String name(String name, Meter.Type type, @Nullable String baseUnit) {
			return super.name("app." + name, type, baseUnit);
		}

	}

	/**
	 * A span that is sampled or not, with ids that change from recording to recording.
	 */
	private static final class RandomSpanContext implements SpanContext {

		private final Random random;

		RandomSpanContext(Random random) {
			this.random = new Random(random.nextLong());
		}

		@Override
		public @Nullable String getCurrentTraceId() {
			return Long.toHexString(this.random.nextLong()) + Long.toHexString(this.random.nextLong());
		}

		@Override
		public @Nullable String getCurrentSpanId() {
			return Long.toHexString(this.random.nextLong());
		}

		@Override
		public boolean isCurrentSpanSampled() {
			return this.random.nextInt(5) != 0;
		}

		@Override
		public void markCurrentSpanAsExemplar() {
		}

	}

}

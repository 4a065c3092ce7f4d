package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.leanscrape.exposition.BodyKind;
import io.github.leanscrape.exposition.ChunkPool;
import io.github.leanscrape.exposition.ChunkedOutput;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.exposition.ReferenceRenderer;
import io.github.leanscrape.support.FrozenClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusDurationNamingConvention;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of random registries, each scraped by the direct path and by Spring Boot's
 * endpoint, in both text formats, with and without a name filter, before and after random
 * removals: the bytes must be equal, or both must fail. The seed of a failing registry is
 * in the failure message; {@code -Dleanscrape.random.seed=N} replays it alone.
 */
class RandomRegistryDifferentialTests {

	private static final int REGISTRIES = Integer.getInteger("leanscrape.random.registries", 3000);

	private static final String[] NAMES = { "http.requests", "http.requests", "jobs", "queue.size", "a", "a.b", "a_b",
			"cache.gets", "x.total", "sessions.info", "db", "db.max", "db_max", "1st.metric", "temp.c", "net-bytes",
			"api:calls", "process.uptime" };

	private static final String[] KEYS = { "uri", "method", "status", "a.b", "a_b", "__x", "region", "z", "le",
			"quantile", "statistic", "Mixed.Case", "zone", "k" };

	private static final String[] VALUES = { "/", "/api/{id}", "GET", "200", "", "a\"b", "back\\slash", "new\nline",
			"zürich", "東京", "😀", "x y", "0", "10", "9", "-", "a,b", "}" };

	private static final double[] SPECIAL = { 0, -0.0, 1, 0.5, 1e-5, 1e7, 9_999_999, 12_345_678.9, Double.NaN,
			Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 2e23, -3.25,
			1.0 / 3, 100 };

	private long directScrapes;

	private long referenceScrapes;

	private long referenceFamilies;

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
		}
	}

	private void checkRegistry(long seed) {
		Random random = new Random(seed);
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
				new PrometheusRegistry(), new FrozenClock());
		if (random.nextInt(4) == 0) {
			registry.config().commonTags("app", pick(random, VALUES));
		}
		if (random.nextInt(6) == 0) {
			registry.config().namingConvention(new PrometheusDurationNamingConvention());
		}
		if (random.nextInt(4) == 0) {
			registry.config().meterFilter(MeterFilter.deny((id) -> id.getName().startsWith("jobs")));
		}
		if (random.nextInt(4) == 0) {
			registry.config().meterFilter(MeterFilter.renameTag("http.requests", "uri", "path"));
		}
		Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
		ReferenceRenderer reference = new ReferenceRenderer(registry.getPrometheusRegistry(), properties);
		boolean createFirst = random.nextBoolean();
		DirectRenderer direct = createFirst
				? new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties, reference, Long.MAX_VALUE) : null;
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
			direct = new DirectRenderer(registry, PrometheusConfig.DEFAULT, properties, reference, Long.MAX_VALUE);
		}
		PrometheusScrapeEndpoint boot = new PrometheusScrapeEndpoint(registry.getPrometheusRegistry(), properties);
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
		for (PrometheusOutputFormat format : new PrometheusOutputFormat[] { PrometheusOutputFormat.CONTENT_TYPE_004,
				PrometheusOutputFormat.CONTENT_TYPE_OPENMETRICS_100 }) {
			compare(direct, boot, format, null);
			compare(direct, boot, format, names);
		}
	}

	private void compare(DirectRenderer direct, PrometheusScrapeEndpoint boot, PrometheusOutputFormat format,
			Set<String> names) {
		byte[] expected;
		RuntimeException bootFailure = null;
		try {
			expected = boot.scrape(format, names).getBody();
		}
		catch (RuntimeException ex) {
			expected = null;
			bootFailure = ex;
		}
		ChunkPool pool = new ChunkPool(1024, 1 << 20);
		ChunkedOutput buffer = new ChunkedOutput(pool, BodyKind.of(PrometheusOutputFormat.CONTENT_TYPE_004, null), 0);
		byte[] actual;
		try {
			direct.render(format, names, buffer);
			PooledBody body = buffer.toBody();
			actual = body.toByteArray();
			body.release();
		}
		catch (Exception ex) {
			buffer.discard();
			if (expected != null) {
				throw new AssertionError(
						"Direct path failed where Spring Boot's endpoint did not, " + format + " " + names, ex);
			}
			return;
		}
		if (expected == null) {
			throw new AssertionError(
					"Spring Boot's endpoint failed (" + bootFailure + ") where the direct path did not, " + format + " "
							+ names + ":\n" + new String(actual, StandardCharsets.UTF_8));
		}
		assertThat(new String(actual, StandardCharsets.UTF_8)).as(format + " " + names)
			.isEqualTo(new String(expected, StandardCharsets.UTF_8));
		assertThat(actual).isEqualTo(expected);
		assertThat(pool.leasedChunks()).isZero();
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

}

package io.github.leanscrape.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * A registry's worth of every kind of Micrometer meter, with the awkward corners of the
 * exposition formats: escaped and non-ASCII label values and descriptions, NaN and
 * infinite values, meter filters and common tags. Values are fixed, so that two scrapes
 * of the same registry are equal as long as the registry's clock does not move.
 * <p>
 * Micrometer holds the objects watched by gauges and function meters weakly: an instance
 * of this class keeps them strongly reachable for as long as it is referenced.
 */
public final class RichMeters {

	/**
	 * The prefix of every meter registered here.
	 */
	public static final String PREFIX = "rich.";

	private final List<Object> strongReferences = new ArrayList<>();

	private RichMeters() {
	}

	/**
	 * The filters and common tags the meters expect; apply before registering.
	 * @param registry the registry to configure
	 */
	public static void configure(MeterRegistry registry) {
		registry.config()
			.commonTags("app", "rich-app")
			.meterFilter(MeterFilter.deny((id) -> id.getName().startsWith("rich.denied")))
			.meterFilter(MeterFilter.renameTag("rich.renamed", "old_tag", "new_tag"))
			.meterFilter(new MeterFilter() {

				@Override
				public Meter.Id map(Meter.Id id) {
					return id.getName().equals("rich.before.rename") ? id.withName("rich.renamed.meter") : id;
				}

			});
	}

	/**
	 * Register every kind of meter.
	 * @param registry the registry
	 * @param bulkSeries how many extra plain counter series to add, for large bodies
	 * @return the strong references to keep
	 */
	public static RichMeters register(MeterRegistry registry, int bulkSeries) {
		RichMeters meters = new RichMeters();
		meters.registerAll(registry);
		for (int i = 0; i < bulkSeries; i++) {
			Counter.builder("rich.bulk")
				.description("Bulk series")
				.tags("shard", Integer.toString(i % 17), "index", Integer.toString(i))
				.register(registry)
				.increment(i);
		}
		return meters;
	}

	private void registerAll(MeterRegistry registry) {
		Counter.builder("rich.requests")
			.description("Requests \"served\" \\ by path\nsecond line")
			.tags("path", "/a\"b\\c\nd", "region", "zürich ✓ 東京")
			.register(registry)
			.increment(3);
		Counter.builder("rich.requests").tags("path", "/plain", "region", "eu").register(registry).increment(1.5);
		Counter.builder("rich.requests").tags("path", "/10", "region", "eu").register(registry).increment(10);
		Counter.builder("rich.requests").tags("path", "/2", "region", "eu").register(registry).increment(2);
		Counter.builder("rich.no.description").register(registry).increment(7);

		AtomicLong functionCounted = keep(new AtomicLong(123_456_789L));
		FunctionCounter.builder("rich.function.counter", functionCounted, AtomicLong::doubleValue)
			.description("A function counter")
			.tag("kind", "function")
			.register(registry);

		double[] gaugeValues = { 0.1, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e-5,
				123_456_789.0, 3.0, 1e7, 9_999_999.0, -42.5, Double.MIN_VALUE, Double.MAX_VALUE, 1.0 / 3 };
		for (int i = 0; i < gaugeValues.length; i++) {
			double[] holder = keep(new double[] { gaugeValues[i] });
			Gauge.builder("rich.gauge", holder, (h) -> h[0])
				.description("Gauge with every kind of double")
				.tag("case", Integer.toString(i))
				.register(registry);
		}
		Gauge.builder("rich.gauge.throwing", this, (meters) -> {
			throw new IllegalStateException("Gauge function fails");
		}).description("A gauge whose function throws: NaN, and the scrape goes on").register(registry);
		AtomicLong timeGauged = keep(new AtomicLong(1500));
		TimeGauge.builder("rich.time.gauge", timeGauged, TimeUnit.MILLISECONDS, AtomicLong::doubleValue)
			.description("A time gauge")
			.register(registry);
		MultiGauge multiGauge = keep(MultiGauge.builder("rich.multi.gauge")
			.description("Rows of a multi-gauge")
			.baseUnit("rows")
			.register(registry));
		multiGauge.register(List.of(MultiGauge.Row.of(Tags.of("table", "a"), 1.0),
				MultiGauge.Row.of(Tags.of("table", "b"), 2.5), MultiGauge.Row.of(Tags.of("table", "c"), 0)));

		Timer plain = Timer.builder("rich.timer").description("A plain timer").tag("uri", "/x").register(registry);
		plain.record(Duration.ofMillis(15));
		plain.record(Duration.ofMillis(250));
		Timer histogram = Timer.builder("rich.timer.histogram")
			.description("A timer with a percentile histogram")
			.publishPercentileHistogram()
			.register(registry);
		for (int i = 1; i <= 20; i++) {
			histogram.record(Duration.ofMillis(i * 37L));
		}
		Timer percentiles = Timer.builder("rich.timer.percentiles")
			.publishPercentiles(0.5, 0.95)
			.serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(100))
			.register(registry);
		for (int i = 1; i <= 10; i++) {
			percentiles.record(Duration.ofMillis(i * 11L));
		}
		Timer slosOnly = Timer.builder("rich.timer.slo")
			.serviceLevelObjectives(Duration.ofMillis(50))
			.minimumExpectedValue(Duration.ofMillis(1))
			.register(registry);
		slosOnly.record(Duration.ofMillis(20));

		AtomicLong timedCount = keep(new AtomicLong(4));
		FunctionTimer
			.builder("rich.function.timer", timedCount, AtomicLong::get, (c) -> c.get() * 12.5, TimeUnit.MILLISECONDS)
			.description("A function timer")
			.register(registry);

		LongTaskTimer longTask = LongTaskTimer.builder("rich.long.task").description("A long task").register(registry);
		keep(longTask.start());
		LongTaskTimer longTaskHistogram = LongTaskTimer.builder("rich.long.task.histogram")
			.publishPercentileHistogram()
			.register(registry);
		keep(longTaskHistogram.start());

		DistributionSummary summary = DistributionSummary.builder("rich.summary")
			.description("A summary with scale and base unit")
			.baseUnit("bytes")
			.scale(0.5)
			.publishPercentiles(0.99)
			.publishPercentileHistogram()
			.maximumExpectedValue(10_000.0)
			.register(registry);
		for (int i = 1; i <= 15; i++) {
			summary.record(i * 100);
		}
		DistributionSummary.builder("rich.summary.plain").register(registry).record(5);

		List<Measurement> measurements = List.of(new Measurement(() -> 1.0, Statistic.COUNT),
				new Measurement(() -> 2.5, Statistic.TOTAL), new Measurement(() -> 3.0, Statistic.TOTAL_TIME),
				new Measurement(() -> 4.0, Statistic.VALUE), new Measurement(() -> 5.0, Statistic.MAX),
				new Measurement(() -> 6.0, Statistic.ACTIVE_TASKS), new Measurement(() -> 7.0, Statistic.DURATION),
				new Measurement(() -> 8.0, Statistic.UNKNOWN));
		Meter.builder("rich.custom", Meter.Type.OTHER, measurements)
			.description("A custom meter")
			.tag("custom", "yes")
			.register(registry);
		Meter.builder("rich.custom.counter", Meter.Type.COUNTER, List.of(new Measurement(() -> 9.0, Statistic.COUNT)))
			.register(registry);
		Meter.builder("rich.custom.gauge", Meter.Type.GAUGE, List.of(new Measurement(() -> 10.0, Statistic.VALUE)))
			.register(registry);

		Counter.builder("rich.renamed").tag("old_tag", "v").register(registry).increment();
		Counter.builder("rich.before.rename").register(registry).increment(2);
		Counter.builder("rich.denied.counter").register(registry).increment();
	}

	private <T> T keep(T object) {
		this.strongReferences.add(object);
		return object;
	}

}

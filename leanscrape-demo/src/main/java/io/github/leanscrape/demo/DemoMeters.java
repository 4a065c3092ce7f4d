package io.github.leanscrape.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * The meters of the demo application: synthetic series in many families, built the same
 * way on every start, and a few known series whose values are set exactly, for tests to
 * check what a scraper stored.
 * <p>
 * Of the {@code demo.series} synthetic time series, 70% are counters (families of 100,
 * three labels), 20% gauges (families of 50, two labels) and the rest timers with a
 * percentile histogram (families of 5, two labels), each of which yields one series per
 * bucket plus its count, sum and max.
 * <p>
 * Every meter has a description and a name that does not say its type, so that
 * {@code promtool check metrics} finds nothing in the demo's own families.
 * <p>
 * Micrometer holds the objects that gauges watch weakly: this bean keeps them.
 *
 * @author leanscrape
 */
@Component
public class DemoMeters implements MeterBinder, DisposableBean {

	/**
	 * Name of the known counter.
	 */
	public static final String KNOWN_COUNTER = "demo.known.events";

	/**
	 * Value of the known counter.
	 */
	public static final double KNOWN_COUNTER_VALUE = 42;

	/**
	 * Name of the known gauge.
	 */
	public static final String KNOWN_GAUGE = "demo.known.level";

	/**
	 * Value of the known gauge.
	 */
	public static final double KNOWN_GAUGE_VALUE = 7.5;

	/**
	 * Name of the known distribution summary with a histogram of
	 * {@link #knownHistogramBoundaries() fixed boundaries}.
	 */
	public static final String KNOWN_HISTOGRAM = "demo.known.sizes";

	/**
	 * Name of the known distribution summary with a client-side percentile.
	 */
	public static final String KNOWN_QUANTILE = "demo.known.quantile";

	/**
	 * The percentile that the known quantile summary publishes.
	 */
	public static final double KNOWN_QUANTILE_PERCENTILE = 0.5;

	/**
	 * The value of the known quantile: every recording of that summary is this value, so
	 * Micrometer's estimate of any percentile is exactly it.
	 */
	public static final double KNOWN_QUANTILE_VALUE = 2.5;

	private static final int KNOWN_QUANTILE_RECORDINGS = 4;

	private static final double[] KNOWN_HISTOGRAM_BOUNDARIES = { 1, 5, 10 };

	private static final double[] KNOWN_HISTOGRAM_RECORDINGS = { 0.5, 3, 3, 7, 20 };

	private static final int COUNTERS_PER_FAMILY = 100;

	private static final int GAUGES_PER_FAMILY = 50;

	private static final int TIMERS_PER_FAMILY = 5;

	private static final int TIMER_RECORDINGS = 16;

	private static final String[] COUNTER_STEMS = { "demo.http.client.requests", "demo.cache.gets",
			"demo.queue.messages", "demo.db.statements", "demo.jobs.runs" };

	private static final String[] GAUGE_STEMS = { "demo.pool.connections", "demo.queue.depth", "demo.cache.entries" };

	private static final String[] REGIONS = { "eu-west", "eu-central", "us-east", "ap-south" };

	private static final String[] OUTCOMES = { "SUCCESS", "CLIENT_ERROR", "SERVER_ERROR" };

	private static final String[] METHODS = { "GET", "POST", "PUT", "DELETE" };

	private static final Log logger = LogFactory.getLog(DemoMeters.class);

	private final int series;

	private final GaugeValue knownGauge = new GaugeValue(KNOWN_GAUGE_VALUE);

	private final GaugeValue[] gaugeValues;

	private final double changingPercent;

	private final List<Counter> changing = new ArrayList<>();

	private @Nullable ScheduledExecutorService changer;

	/**
	 * Create the demo meters.
	 * @param properties the demo settings
	 */
	public DemoMeters(DemoProperties properties) {
		this.series = Math.max(0, properties.getSeries());
		this.changingPercent = properties.getChangingPercent();
		this.gaugeValues = new GaugeValue[gaugeSeries(this.series)];
		for (int i = 0; i < this.gaugeValues.length; i++) {
			int family = i / GAUGES_PER_FAMILY;
			int member = i % GAUGES_PER_FAMILY;
			// Multiples of 1/8 from -20 to about 105: exact in binary, some negative.
			this.gaugeValues[i] = new GaugeValue(((family * 31 + member * 17) % 1000) / 8.0 - 20);
		}
	}

	/**
	 * Return the upper bounds of the known histogram's finite buckets.
	 * @return a new array of the boundaries, ascending
	 */
	public static double[] knownHistogramBoundaries() {
		return KNOWN_HISTOGRAM_BOUNDARIES.clone();
	}

	/**
	 * Return the values recorded into the known histogram.
	 * @return a new array of the recorded values
	 */
	public static double[] knownHistogramRecordings() {
		return KNOWN_HISTOGRAM_RECORDINGS.clone();
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		bindKnown(registry);
		int counters = counterSeries(this.series);
		for (int i = 0; i < counters; i++) {
			int family = i / COUNTERS_PER_FAMILY;
			int member = i % COUNTERS_PER_FAMILY;
			Counter counter = Counter.builder(COUNTER_STEMS[family % COUNTER_STEMS.length] + ".f" + family)
				.description("Synthetic counter family " + family)
				.tag("region", REGIONS[member % REGIONS.length])
				.tag("outcome", OUTCOMES[member % OUTCOMES.length])
				.tag("node", "n-" + member)
				.register(registry);
			// Whole numbers and quarters: both integral and fractional samples.
			counter.increment((family * 7919L + member * 104729L) % 100_000 + (member % 4) * 0.25);
			if (this.changingPercent > 0 && family % Math.max(1, Math.round(100 / this.changingPercent)) == 0) {
				this.changing.add(counter);
			}
		}
		for (int i = 0; i < this.gaugeValues.length; i++) {
			int family = i / GAUGES_PER_FAMILY;
			int member = i % GAUGES_PER_FAMILY;
			String name = GAUGE_STEMS[family % GAUGE_STEMS.length] + ".f" + family;
			Gauge.builder(name, this.gaugeValues[i], GaugeValue::get)
				.description("Synthetic gauge family " + family)
				.tag("pool", "pool-" + (member % 7))
				.tag("node", "n-" + member)
				.register(registry);
		}
		int timerBudget = this.series - counters - this.gaugeValues.length;
		int timers = 0;
		int timerSeries = 0;
		while (timerSeries < timerBudget) {
			int family = timers / TIMERS_PER_FAMILY;
			Timer timer = Timer.builder("demo.handler.latency.f" + family)
				.description("Synthetic timer family " + family)
				.tag("method", METHODS[timers % METHODS.length])
				.tag("uri", "/api/resource/" + (timers % TIMERS_PER_FAMILY))
				.publishPercentileHistogram()
				.register(registry);
			for (int k = 0; k < TIMER_RECORDINGS; k++) {
				timer.record(Duration.ofMillis((timers * 53L + k * 97L) % 5000 + 1));
			}
			// One series per finite bucket, then +Inf, count, sum and max.
			timerSeries += timer.takeSnapshot().histogramCounts().length + 4;
			timers++;
		}
		startChanging();
		logger.info(String.format("Registered %d synthetic series: %d counters, %d gauges, %d timers (%d series)",
				counters + this.gaugeValues.length + timerSeries, counters, this.gaugeValues.length, timers,
				timerSeries));
	}

	private void startChanging() {
		if (this.changing.isEmpty()) {
			return;
		}
		ScheduledExecutorService changer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "demo-changing-counters");
			thread.setDaemon(true);
			return thread;
		});
		changer.scheduleAtFixedRate(this::change, 1, 1, TimeUnit.SECONDS);
		this.changer = changer;
		logger.info(String.format("Incrementing %d synthetic counters every second", this.changing.size()));
	}

	private void change() {
		for (Counter counter : this.changing) {
			counter.increment();
		}
	}

	@Override
	public void destroy() {
		if (this.changer != null) {
			this.changer.shutdownNow();
		}
	}

	private void bindKnown(MeterRegistry registry) {
		Counter.builder(KNOWN_COUNTER)
			.description("A counter with a known value")
			.register(registry)
			.increment(KNOWN_COUNTER_VALUE);
		Gauge.builder(KNOWN_GAUGE, this.knownGauge, GaugeValue::get)
			.description("A gauge with a known value")
			.register(registry);
		DistributionSummary histogram = DistributionSummary.builder(KNOWN_HISTOGRAM)
			.description("A histogram with known bucket counts")
			.serviceLevelObjectives(KNOWN_HISTOGRAM_BOUNDARIES)
			.register(registry);
		for (double value : KNOWN_HISTOGRAM_RECORDINGS) {
			histogram.record(value);
		}
		DistributionSummary quantile = DistributionSummary.builder(KNOWN_QUANTILE)
			.description("A summary with a known client-side percentile")
			.publishPercentiles(KNOWN_QUANTILE_PERCENTILE)
			// Percentiles decay with time; one window that never rotates keeps the value.
			.distributionStatisticExpiry(Duration.ofDays(3650))
			.distributionStatisticBufferLength(1)
			.register(registry);
		for (int i = 0; i < KNOWN_QUANTILE_RECORDINGS; i++) {
			quantile.record(KNOWN_QUANTILE_VALUE);
		}
	}

	private static int counterSeries(int series) {
		return series / 10 * 7;
	}

	private static int gaugeSeries(int series) {
		return series / 10 * 2;
	}

	/**
	 * The value a gauge watches, fixed when the meters are made.
	 */
	private static final class GaugeValue {

		private final double value;

		GaugeValue(double value) {
			this.value = value;
		}

		double get() {
			return this.value;
		}

	}

}

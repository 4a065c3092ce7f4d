package io.github.leanscrape.benchmark;

import java.time.Duration;
import java.util.Properties;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.tracer.common.SpanContext;
import org.jspecify.annotations.Nullable;

/**
 * A {@link PrometheusMeterRegistry} filled deterministically with a given number of
 * series, shaped like an application's: mostly counters in families of fifty with a few
 * labels each, some gauges, and timers with histograms.
 * <p>
 * A series is one sample line of the text format. Of {@code n} series:
 * <ul>
 * <li>about 5% are histogram buckets: timers with {@value #SLO_COUNT} service level
 * objectives, each giving {@value #SLO_COUNT} + 1 buckets ({@code +Inf} included), a
 * {@code _count}, a {@code _sum} and a {@code _max} series ({@value #SERIES_PER_TIMER} in
 * all);</li>
 * <li>5% are gauges, in families of ten;</li>
 * <li>the rest are counters, in families of fifty; one family in four counts in
 * fractions, the others in whole numbers.</li>
 * </ul>
 * Every other family has a description, so both {@code # HELP} forms appear. The same
 * count always gives the same meters, labels and values, and the registry runs on a
 * {@link FixedClock}: two registries of the same size scrape to the same bytes.
 *
 * @author leanscrape
 */
final class SyntheticRegistry {

	static final int SLO_COUNT = 10;

	static final int SERIES_PER_TIMER = SLO_COUNT + 1 + 3;

	private static final int COUNTERS_PER_FAMILY = 50;

	private static final int GAUGES_PER_FAMILY = 10;

	private static final int TIMERS_PER_FAMILY = 5;

	private static final int SAMPLES_PER_TIMER = 20;

	private static final String[] METHODS = { "GET", "POST", "PUT", "DELETE" };

	private static final String[] STATUSES = { "200", "201", "204", "400", "404", "500" };

	private static final String[] OUTCOMES = { "SUCCESS", "CLIENT_ERROR", "SERVER_ERROR" };

	private static final String[] COUNTER_NAMES = { "http.client.requests", "cache.gets", "messages.received",
			"db.queries" };

	private static final Duration[] SLOS = { Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
			Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
			Duration.ofMillis(500), Duration.ofMillis(1000), Duration.ofMillis(5000) };

	private final PrometheusMeterRegistry meterRegistry;

	private final PrometheusConfig config;

	/**
	 * What the gauges watch. Micrometer only holds it weakly: this reference keeps the
	 * gauge values alive for as long as the registry is used.
	 */
	private final double[] gaugeValues;

	private final int seriesCount;

	private SyntheticRegistry(PrometheusMeterRegistry meterRegistry, PrometheusConfig config, double[] gaugeValues,
			int seriesCount) {
		this.meterRegistry = meterRegistry;
		this.config = config;
		this.gaugeValues = gaugeValues;
		this.seriesCount = seriesCount;
	}

	/**
	 * Build a registry of {@code seriesCount} series.
	 * @param seriesCount the number of series, at least 100
	 * @return the registry
	 */
	static SyntheticRegistry build(int seriesCount) {
		return build(seriesCount, ScrapeConfiguration.PLAIN);
	}

	/**
	 * Build a registry of {@code seriesCount} series in a configuration.
	 * @param seriesCount the number of series, at least 100
	 * @param configuration what runs beside the meters
	 * @return the registry
	 */
	static SyntheticRegistry build(int seriesCount, ScrapeConfiguration configuration) {
		if (seriesCount < 100) {
			throw new IllegalArgumentException("seriesCount must be at least 100, not " + seriesCount);
		}
		int timers = Math.max(1, Math.round(seriesCount * 0.05f / (SLO_COUNT + 1)));
		int gauges = seriesCount / 20;
		int foreign = (configuration == ScrapeConfiguration.FOREIGN) ? ForeignCollector.SERIES : 0;
		int counters = seriesCount - timers * SERIES_PER_TIMER - gauges - foreign;
		PrometheusConfig config = switch (configuration) {
			case TRACING -> PropertyConfig.TRACING;
			case CREATED -> PropertyConfig.CREATED;
			default -> PrometheusConfig.DEFAULT;
		};
		PrometheusMeterRegistry registry = (configuration == ScrapeConfiguration.TRACING)
				? new PrometheusMeterRegistry(config, new PrometheusRegistry(), new FixedClock(),
						new FixedSpanContext())
				: new PrometheusMeterRegistry(config, new PrometheusRegistry(), new FixedClock());
		addCounters(registry, counters);
		double[] gaugeValues = addGauges(registry, gauges);
		addTimers(registry, timers);
		if (configuration == ScrapeConfiguration.FOREIGN) {
			registry.getPrometheusRegistry().register(new ForeignCollector());
		}
		return new SyntheticRegistry(registry, config, gaugeValues, seriesCount);
	}

	private static void addCounters(PrometheusMeterRegistry registry, int count) {
		for (int i = 0; i < count; i++) {
			int family = i / COUNTERS_PER_FAMILY;
			int member = i % COUNTERS_PER_FAMILY;
			Counter counter = Counter.builder(COUNTER_NAMES[family % COUNTER_NAMES.length] + "." + family)
				.description(description(family, "Requests handled"))
				.tag("method", METHODS[member % METHODS.length])
				.tag("status", STATUSES[(member / METHODS.length) % STATUSES.length])
				.tag("uri", "/api/v1/items/" + (member / (METHODS.length * STATUSES.length)))
				.register(registry);
			if (family % 4 == 3) {
				counter.increment(member * 0.37 + family);
			}
			else {
				counter.increment((member * 31L + family * 7L) % 10_000 + 1);
			}
		}
	}

	private static double[] addGauges(PrometheusMeterRegistry registry, int count) {
		double[] values = new double[count];
		for (int i = 0; i < count; i++) {
			int family = i / GAUGES_PER_FAMILY;
			int member = i % GAUGES_PER_FAMILY;
			values[i] = (member % 2 == 0) ? (i * 1_048_576L) : (i * 0.25 + 0.125);
			int index = i;
			Gauge.builder("pool.usage." + family, values, (watched) -> watched[index])
				.description(description(family, "Memory in use"))
				.baseUnit("bytes")
				.tag("area", (member % 2 == 0) ? "heap" : "nonheap")
				.tag("id", "pool-" + member)
				.register(registry);
		}
		return values;
	}

	private static void addTimers(PrometheusMeterRegistry registry, int count) {
		for (int i = 0; i < count; i++) {
			int family = i / TIMERS_PER_FAMILY;
			int member = i % TIMERS_PER_FAMILY;
			Timer timer = Timer.builder("service.calls." + family)
				.description(description(family, "Calls served"))
				.serviceLevelObjectives(SLOS)
				.tag("method", METHODS[member % METHODS.length])
				.tag("outcome", OUTCOMES[member % OUTCOMES.length])
				.tag("uri", "/api/v1/orders/" + member)
				.register(registry);
			for (int sample = 0; sample < SAMPLES_PER_TIMER; sample++) {
				long micros = ((sample * 37L + i * 11L) % 2_000) * 1_000 + sample * 13L + 1;
				timer.record(Duration.ofNanos(micros * 1_000));
			}
		}
	}

	private static @Nullable String description(int family, String text) {
		return (family % 2 == 0) ? text + " (family " + family + ")" : null;
	}

	/**
	 * Return the meter registry.
	 * @return the registry
	 */
	PrometheusMeterRegistry meterRegistry() {
		return this.meterRegistry;
	}

	/**
	 * Return the registry's configuration, whose client_java properties the endpoints are
	 * given too.
	 * @return the configuration
	 */
	PrometheusConfig config() {
		return this.config;
	}

	/**
	 * Return the client_java registry behind the meter registry, which both endpoints
	 * scrape.
	 * @return the registry
	 */
	PrometheusRegistry prometheusRegistry() {
		return this.meterRegistry.getPrometheusRegistry();
	}

	/**
	 * Return the number of series this registry was built with.
	 * @return the series count
	 */
	int seriesCount() {
		return this.seriesCount;
	}

	/**
	 * Return the values the gauges watch.
	 * @return the gauge values
	 */
	double[] gaugeValues() {
		return this.gaugeValues;
	}

	/**
	 * Micrometer's defaults and one client_java property of a configuration's own.
	 */
	private static final class PropertyConfig implements PrometheusConfig {

		/**
		 * Exemplars kept for a day instead of 70 seconds, so that they are still there
		 * when a benchmark measures, long after the meters recorded.
		 */
		static final PropertyConfig TRACING = new PropertyConfig("io.prometheus.exemplars.maxRetentionPeriodSeconds",
				"86400");

		/**
		 * Created timestamps turned on in the text formats.
		 */
		static final PropertyConfig CREATED = new PropertyConfig("io.prometheus.exporter.includeCreatedTimestamps",
				"true");

		private final String key;

		private final String value;

		private PropertyConfig(String key, String value) {
			this.key = key;
			this.value = value;
		}

		@Override
		public @Nullable String get(String key) {
			return null;
		}

		@Override
		public Properties prometheusProperties() {
			Properties properties = PrometheusConfig.DEFAULT.prometheusProperties();
			properties.setProperty(this.key, this.value);
			return properties;
		}

	}

	/**
	 * A span that is always current and sampled, as under a tracer that samples every
	 * request.
	 */
	private static final class FixedSpanContext implements SpanContext {

		@Override
		public String getCurrentTraceId() {
			return "4bf92f3577b34da6a3ce929d0e0e4736";
		}

		@Override
		public String getCurrentSpanId() {
			return "00f067aa0ba902b7";
		}

		@Override
		public boolean isCurrentSpanSampled() {
			return true;
		}

		@Override
		public void markCurrentSpanAsExemplar() {
		}

	}

	/**
	 * A small collector of a library's own, registered in client_java beside Micrometer:
	 * one gauge family of ten series, taken from the counters' share.
	 */
	private static final class ForeignCollector implements Collector {

		static final int SERIES = 10;

		@Override
		public MetricSnapshot collect() {
			GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name("library_pool_size").help("Pool size");
			for (int i = 0; i < SERIES; i++) {
				gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
					.labels(Labels.of("pool", "pool-" + i))
					.value(i * 4)
					.build());
			}
			return gauge.build();
		}

	}

}

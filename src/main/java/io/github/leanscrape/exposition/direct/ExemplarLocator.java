package io.github.leanscrape.exposition.direct;

import java.lang.reflect.Field;

import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusCounter;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusTimer;
import io.prometheus.metrics.core.exemplars.ExemplarSampler;
import io.prometheus.metrics.core.exemplars.ExemplarSamplerConfig;
import io.prometheus.metrics.model.snapshots.Exemplar;
import org.jspecify.annotations.Nullable;

/**
 * Finds, once per meter when it is added, the exemplar slots of Micrometer's Prometheus
 * meters: the client_java sampler a counter keeps, and the one a timer or distribution
 * summary keeps either in its Prometheus histogram (one slot per bucket) or on its own.
 * Neither Micrometer nor client_java makes them public; they are read by reflection, here
 * only, and a missing field makes the locator unusable, so that OpenMetrics scrapes with
 * exemplars go to the reference path whole.
 *
 * @author leanscrape
 */
final class ExemplarLocator {

	private static final String REFERENCE_PATH = "exemplars take the reference path";

	private static final @Nullable Field COUNTER_SAMPLER = Reflection.field(PrometheusCounter.class, "exemplarSampler",
			REFERENCE_PATH);

	private static final @Nullable Field TIMER_SAMPLER = Reflection.field(PrometheusTimer.class, "exemplarSampler",
			REFERENCE_PATH);

	private static final @Nullable Field TIMER_HISTOGRAM = Reflection.field(PrometheusTimer.class, "histogram",
			REFERENCE_PATH);

	private static final @Nullable Field SUMMARY_SAMPLER = Reflection.field(PrometheusDistributionSummary.class,
			"exemplarSampler", REFERENCE_PATH);

	private static final @Nullable Field SUMMARY_HISTOGRAM = Reflection.field(PrometheusDistributionSummary.class,
			"histogram", REFERENCE_PATH);

	private static final @Nullable Class<?> PROMETHEUS_HISTOGRAM = Reflection.micrometerClass("PrometheusHistogram",
			REFERENCE_PATH);

	private static final @Nullable Field HISTOGRAM_SAMPLER = (PROMETHEUS_HISTOGRAM != null)
			? Reflection.field(PROMETHEUS_HISTOGRAM, "exemplarSampler", REFERENCE_PATH) : null;

	private static final @Nullable Field SAMPLED = Reflection.field(ExemplarSampler.class, "exemplars", REFERENCE_PATH);

	private static final @Nullable Field CUSTOM = Reflection.field(ExemplarSampler.class, "customExemplars",
			REFERENCE_PATH);

	private static final @Nullable Field CONFIG = Reflection.field(ExemplarSampler.class, "config", REFERENCE_PATH);

	/**
	 * Return whether every field the locator reads was found.
	 * @return {@code true} when exemplars can be read directly
	 */
	static boolean isUsable() {
		return COUNTER_SAMPLER != null && TIMER_SAMPLER != null && TIMER_HISTOGRAM != null && SUMMARY_SAMPLER != null
				&& SUMMARY_HISTOGRAM != null && HISTOGRAM_SAMPLER != null && SAMPLED != null && CUSTOM != null
				&& CONFIG != null;
	}

	/**
	 * Return the exemplar slots of a meter.
	 * @param meter the meter
	 * @return its slots, or {@code null} when it samples no exemplars
	 */
	@Nullable ExemplarSlots locate(Meter meter) {
		Object sampler;
		if (meter instanceof PrometheusCounter) {
			sampler = Reflection.get(COUNTER_SAMPLER, meter);
		}
		else if (meter instanceof PrometheusTimer) {
			sampler = sampler(meter, TIMER_HISTOGRAM, TIMER_SAMPLER);
		}
		else if (meter instanceof PrometheusDistributionSummary) {
			sampler = sampler(meter, SUMMARY_HISTOGRAM, SUMMARY_SAMPLER);
		}
		else {
			return null;
		}
		if (!(sampler instanceof ExemplarSampler exemplarSampler)) {
			return null;
		}
		Object sampled = Reflection.get(SAMPLED, exemplarSampler);
		Object custom = Reflection.get(CUSTOM, exemplarSampler);
		Object config = Reflection.get(CONFIG, exemplarSampler);
		if (!(sampled instanceof Exemplar[] sampledSlots) || !(custom instanceof Exemplar[] customSlots)
				|| !(config instanceof ExemplarSamplerConfig samplerConfig)) {
			return null;
		}
		return new ExemplarSlots(customSlots, sampledSlots, samplerConfig.getMaxRetentionPeriodMillis(),
				meter instanceof PrometheusTimer);
	}

	/**
	 * Return the sampler of a timer or summary: its Prometheus histogram's, when it
	 * publishes one, else its own.
	 * @param meter the timer or summary
	 * @param histogramField its histogram field
	 * @param samplerField its own sampler field
	 * @return the sampler, or {@code null} when it has none
	 */
	private static @Nullable Object sampler(Meter meter, @Nullable Field histogramField, @Nullable Field samplerField) {
		Object histogram = Reflection.get(histogramField, meter);
		if (PROMETHEUS_HISTOGRAM != null && PROMETHEUS_HISTOGRAM.isInstance(histogram)) {
			return Reflection.get(HISTOGRAM_SAMPLER, histogram);
		}
		return Reflection.get(samplerField, meter);
	}

}

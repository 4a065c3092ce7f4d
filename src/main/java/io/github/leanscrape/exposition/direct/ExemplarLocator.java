package io.github.leanscrape.exposition.direct;

import java.lang.reflect.Field;

import io.micrometer.core.instrument.Meter;
import io.micrometer.prometheusmetrics.PrometheusCounter;
import io.micrometer.prometheusmetrics.PrometheusDistributionSummary;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusTimer;
import io.prometheus.metrics.core.exemplars.ExemplarSampler;
import io.prometheus.metrics.core.exemplars.ExemplarSamplerConfig;
import io.prometheus.metrics.model.snapshots.Exemplar;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
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

	private static final Log logger = LogFactory.getLog(ExemplarLocator.class);

	private static final @Nullable Field COUNTER_SAMPLER = field(PrometheusCounter.class, "exemplarSampler");

	private static final @Nullable Field TIMER_SAMPLER = field(PrometheusTimer.class, "exemplarSampler");

	private static final @Nullable Field TIMER_HISTOGRAM = field(PrometheusTimer.class, "histogram");

	private static final @Nullable Field SUMMARY_SAMPLER = field(PrometheusDistributionSummary.class,
			"exemplarSampler");

	private static final @Nullable Field SUMMARY_HISTOGRAM = field(PrometheusDistributionSummary.class, "histogram");

	private static final @Nullable Class<?> PROMETHEUS_HISTOGRAM = prometheusHistogramClass();

	private static final @Nullable Field HISTOGRAM_SAMPLER = (PROMETHEUS_HISTOGRAM != null)
			? field(PROMETHEUS_HISTOGRAM, "exemplarSampler") : null;

	private static final @Nullable Field SAMPLED = field(ExemplarSampler.class, "exemplars");

	private static final @Nullable Field CUSTOM = field(ExemplarSampler.class, "customExemplars");

	private static final @Nullable Field CONFIG = field(ExemplarSampler.class, "config");

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
			sampler = get(COUNTER_SAMPLER, meter);
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
		Object sampled = get(SAMPLED, exemplarSampler);
		Object custom = get(CUSTOM, exemplarSampler);
		Object config = get(CONFIG, exemplarSampler);
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
		Object histogram = get(histogramField, meter);
		if (PROMETHEUS_HISTOGRAM != null && PROMETHEUS_HISTOGRAM.isInstance(histogram)) {
			return get(HISTOGRAM_SAMPLER, histogram);
		}
		return get(samplerField, meter);
	}

	private static @Nullable Object get(@Nullable Field field, @Nullable Object target) {
		if (field == null || target == null) {
			return null;
		}
		try {
			return field.get(target);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	private static @Nullable Class<?> prometheusHistogramClass() {
		try {
			return Class.forName("io.micrometer.prometheusmetrics.PrometheusHistogram", false,
					PrometheusMeterRegistry.class.getClassLoader());
		}
		catch (ClassNotFoundException | LinkageError ex) {
			logger.debug("Cannot find Micrometer's Prometheus histogram; exemplars take the reference path", ex);
			return null;
		}
	}

	private static @Nullable Field field(Class<?> owner, String name) {
		try {
			Field field = owner.getDeclaredField(name);
			field.setAccessible(true);
			return field;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Cannot read " + owner.getName() + "." + name + "; exemplars take the reference path", ex);
			return null;
		}
	}

}

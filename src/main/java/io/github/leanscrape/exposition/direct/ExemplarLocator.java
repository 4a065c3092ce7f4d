package io.github.leanscrape.exposition.direct;

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
 * Neither Micrometer nor client_java makes them public; they are read by reflection
 * ({@link InternalMember}), and a missing field makes the locator unusable, so that
 * OpenMetrics scrapes with exemplars go to the reference path whole.
 *
 * @author leanscrape
 */
final class ExemplarLocator {

	/**
	 * Return whether every field the locator reads was found.
	 * @return {@code true} when exemplars can be read directly
	 */
	static boolean isUsable() {
		return InternalMember.COUNTER_SAMPLER.isFound() && InternalMember.TIMER_SAMPLER.isFound()
				&& InternalMember.TIMER_HISTOGRAM.isFound() && InternalMember.SUMMARY_SAMPLER.isFound()
				&& InternalMember.SUMMARY_HISTOGRAM.isFound() && InternalMember.HISTOGRAM_SAMPLER.isFound()
				&& InternalMember.SAMPLED_EXEMPLARS.isFound() && InternalMember.CUSTOM_EXEMPLARS.isFound()
				&& InternalMember.SAMPLER_CONFIG.isFound();
	}

	/**
	 * Return the exemplar slots of a meter.
	 * @param meter the meter
	 * @return its slots, or {@code null} when it samples no exemplars
	 */
	@Nullable ExemplarSlots locate(Meter meter) {
		Object sampler;
		if (meter instanceof PrometheusCounter) {
			sampler = InternalMember.COUNTER_SAMPLER.get(meter);
		}
		else if (meter instanceof PrometheusTimer) {
			sampler = sampler(meter, InternalMember.TIMER_HISTOGRAM, InternalMember.TIMER_SAMPLER);
		}
		else if (meter instanceof PrometheusDistributionSummary) {
			sampler = sampler(meter, InternalMember.SUMMARY_HISTOGRAM, InternalMember.SUMMARY_SAMPLER);
		}
		else {
			return null;
		}
		if (!(sampler instanceof ExemplarSampler exemplarSampler)) {
			return null;
		}
		Object sampled = InternalMember.SAMPLED_EXEMPLARS.get(exemplarSampler);
		Object custom = InternalMember.CUSTOM_EXEMPLARS.get(exemplarSampler);
		Object config = InternalMember.SAMPLER_CONFIG.get(exemplarSampler);
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
	private static @Nullable Object sampler(Meter meter, InternalMember histogramField, InternalMember samplerField) {
		Object histogram = histogramField.get(meter);
		Class<?> prometheusHistogram = InternalMember.HISTOGRAM_SAMPLER.owner();
		if (prometheusHistogram != null && prometheusHistogram.isInstance(histogram)) {
			return InternalMember.HISTOGRAM_SAMPLER.get(histogram);
		}
		return samplerField.get(meter);
	}

}

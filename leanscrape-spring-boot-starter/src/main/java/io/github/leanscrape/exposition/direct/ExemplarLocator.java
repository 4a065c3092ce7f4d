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
	 * The slots of a meter whose sampler is there but cannot be read: not an
	 * {@link ExemplarSampler}, or its slots or configuration not what they should be.
	 * Written without them, the meter would lose its exemplars; its name goes to the
	 * reference path instead.
	 */
	static final ExemplarSlots UNREADABLE = new ExemplarSlots(new Exemplar[0], new Exemplar[0], 0, false);

	private final InternalMember sampledExemplars;

	/**
	 * Create a locator that reads the fields of the Micrometer and client_java on the
	 * class path.
	 */
	ExemplarLocator() {
		this(InternalMember.SAMPLED_EXEMPLARS);
	}

	/**
	 * Create a locator that reads a sampler's exemplars from the given member: another
	 * one than {@link InternalMember#SAMPLED_EXEMPLARS} stands, in tests, for a field
	 * that is not what the locator expects.
	 * @param sampledExemplars the member holding a sampler's sampled exemplars
	 */
	ExemplarLocator(InternalMember sampledExemplars) {
		this.sampledExemplars = sampledExemplars;
	}

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
	 * @return its slots, {@code null} when it samples no exemplars (nor does Micrometer's
	 * collector write any), or {@link #UNREADABLE} when it has a sampler whose exemplars
	 * cannot be read
	 */
	@Nullable ExemplarSlots locate(Meter meter) {
		Object sampler;
		if (meter instanceof PrometheusCounter) {
			sampler = InternalMember.COUNTER_SAMPLER.read(meter);
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
		if (InternalMember.isUnreadable(sampler)) {
			return UNREADABLE;
		}
		if (sampler == null) {
			// No sampler: Micrometer's own collector writes no exemplar either.
			return null;
		}
		if (!(sampler instanceof ExemplarSampler exemplarSampler)) {
			return UNREADABLE;
		}
		Object sampled = this.sampledExemplars.get(exemplarSampler);
		Object custom = InternalMember.CUSTOM_EXEMPLARS.get(exemplarSampler);
		Object config = InternalMember.SAMPLER_CONFIG.get(exemplarSampler);
		if (!(sampled instanceof Exemplar[] sampledSlots) || !(custom instanceof Exemplar[] customSlots)
				|| !(config instanceof ExemplarSamplerConfig samplerConfig)) {
			return UNREADABLE;
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
	 * @return the sampler, {@code null} when it has none, or a value that
	 * {@link InternalMember#isUnreadable} tells apart when it cannot be read
	 */
	private static @Nullable Object sampler(Meter meter, InternalMember histogramField, InternalMember samplerField) {
		Object histogram = histogramField.read(meter);
		Class<?> prometheusHistogram = InternalMember.HISTOGRAM_SAMPLER.owner();
		if (InternalMember.isUnreadable(histogram)) {
			return histogram;
		}
		if (prometheusHistogram != null && prometheusHistogram.isInstance(histogram)) {
			return InternalMember.HISTOGRAM_SAMPLER.read(histogram);
		}
		return samplerField.read(meter);
	}

}

package io.github.leanscrape.recording;

import java.util.function.Consumer;
import java.util.function.Function;

import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler.IgnoredMeters;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Two Prometheus meter registries driven by the same observations and the same clock
 * moves: one recorded by Micrometer's {@link DefaultMeterObservationHandler}, the other
 * by the {@link CachingMeterObservationHandler}. Frozen clocks make their scrapes
 * comparable byte for byte, in every format.
 */
final class TwinRegistries {

	final MockClock referenceClock = new MockClock();

	final MockClock clock = new MockClock();

	final PrometheusMeterRegistry reference = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			new PrometheusRegistry(), this.referenceClock);

	final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT,
			new PrometheusRegistry(), this.clock);

	final ObservationRegistry referenceObservations = ObservationRegistry.create();

	final ObservationRegistry observations = ObservationRegistry.create();

	final CachingMeterObservationHandler handler;

	TwinRegistries(int maxCachedMeters, boolean readContextInternals, Consumer<MeterRegistry> configurer,
			IgnoredMeters... ignored) {
		configurer.accept(this.reference);
		configurer.accept(this.registry);
		this.referenceObservations.observationConfig()
			.observationHandler(new DefaultMeterObservationHandler(this.reference, ignored));
		this.handler = new CachingMeterObservationHandler(this.registry, maxCachedMeters, readContextInternals,
				ignored);
		this.observations.observationConfig().observationHandler(this.handler);
	}

	/**
	 * Start the same observation on both sides.
	 */
	Pair start(String name, KeyValues lowCardinality) {
		return new Pair(
				Observation.createNotStarted(name, this.referenceObservations)
					.lowCardinalityKeyValues(lowCardinality)
					.start(),
				Observation.createNotStarted(name, this.observations).lowCardinalityKeyValues(lowCardinality).start());
	}

	/**
	 * Observe once on both sides: start, advance both clocks, optionally add key values
	 * and an error, stop.
	 */
	void observe(String name, KeyValues atStart, KeyValues atStop, Throwable error, long nanos) {
		Pair pair = start(name, atStart);
		advance(nanos);
		pair.each((observation) -> observation.lowCardinalityKeyValues(atStop));
		if (error != null) {
			pair.each((observation) -> observation.error(error));
		}
		pair.stop();
	}

	void observe(String name, KeyValues keyValues, long nanos) {
		observe(name, keyValues, KeyValues.empty(), null, nanos);
	}

	void advance(long nanos) {
		this.referenceClock.add(java.time.Duration.ofNanos(nanos));
		this.clock.add(java.time.Duration.ofNanos(nanos));
	}

	/**
	 * Apply the same action to both registries.
	 */
	<T> void both(Function<MeterRegistry, T> action) {
		action.apply(this.reference);
		action.apply(this.registry);
	}

	static String text(PrometheusMeterRegistry registry) {
		return registry.scrape(PrometheusTextFormatWriter.CONTENT_TYPE);
	}

	static String openMetrics(PrometheusMeterRegistry registry) {
		return registry.scrape(OpenMetricsTextFormatWriter.CONTENT_TYPE);
	}

	static final class Pair {

		final Observation reference;

		final Observation observation;

		Pair(Observation reference, Observation observation) {
			this.reference = reference;
			this.observation = observation;
		}

		void each(Consumer<Observation> action) {
			action.accept(this.reference);
			action.accept(this.observation);
		}

		void stop() {
			this.reference.stop();
			this.observation.stop();
		}

	}

}

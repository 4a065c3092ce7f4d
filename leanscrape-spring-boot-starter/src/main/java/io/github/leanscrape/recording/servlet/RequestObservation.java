package io.github.leanscrape.recording.servlet;

import java.util.function.Consumer;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.RecordedObservation;
import io.micrometer.observation.ObservationRegistry;

/**
 * The observation of a request that {@link ServerRequestMetricsFilter} records without
 * Micrometer's: in scope while the request is handled, so that code reading
 * {@code ObservationRegistry.getCurrentObservation()} finds it and observations started
 * during the request take it as their parent. Stopping it records the request as stopping
 * an observation would, and the filter records it again at the request's end, as Spring's
 * filter would.
 *
 * @author leanscrape
 */
final class RequestObservation extends RecordedObservation<RecordedRequestContext> {

	private final ObservationRegistry registry;

	private final CachingMeterObservationHandler handler;

	private final Consumer<RequestObservation> stop;

	RequestObservation(RecordedRequestContext context, ObservationRegistry registry,
			CachingMeterObservationHandler handler, Consumer<RequestObservation> stop) {
		super(context);
		this.registry = registry;
		this.handler = handler;
		this.stop = stop;
	}

	@Override
	protected CachingMeterObservationHandler handler() {
		return this.handler;
	}

	@Override
	public void stop() {
		this.stop.accept(this);
	}

	@Override
	public ObservationRegistry getObservationRegistry() {
		return this.registry;
	}

}

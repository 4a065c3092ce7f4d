package io.github.leanscrape.recording;

import java.util.function.Consumer;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

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

	private final long startTime;

	private final LongTaskTimer.@Nullable Sample longTask;

	RequestObservation(RecordedRequestContext context, ObservationRegistry registry,
			CachingMeterObservationHandler handler, Consumer<RequestObservation> stop, long startTime,
			LongTaskTimer.@Nullable Sample longTask) {
		super(context);
		this.registry = registry;
		this.handler = handler;
		this.stop = stop;
		this.startTime = startTime;
		this.longTask = longTask;
	}

	long startTime() {
		return this.startTime;
	}

	LongTaskTimer.@Nullable Sample longTask() {
		return this.longTask;
	}

	@Override
	CachingMeterObservationHandler handler() {
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

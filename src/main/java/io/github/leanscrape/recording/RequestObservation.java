package io.github.leanscrape.recording;

import java.util.function.Consumer;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * The observation of a request that {@link ServerRequestMetricsFilter} records without
 * Micrometer's: in scope while the request is handled, so that code reading
 * {@code ObservationRegistry.getCurrentObservation()} finds it and observations started
 * during the request take it as their parent. What is asked of it goes into its context,
 * from which the request's meters are resolved at its end, as an observation's meter
 * handler would resolve them: key values, an error, a convention; an event is counted by
 * the starter's meter handler. It notifies no handler: it exists only where the starter's
 * meter handler is the only one ({@link ObservationBypassCheck}). Starting it again does
 * nothing; stopping it records the request as stopping an observation would, and the
 * filter records it again at the request's end, as Spring's filter would.
 *
 * @author leanscrape
 */
final class RequestObservation implements Observation {

	private final RecordedRequestContext context;

	private final ObservationRegistry registry;

	private final CachingMeterObservationHandler handler;

	private final Consumer<RequestObservation> stop;

	private final long startTime;

	private final LongTaskTimer.@Nullable Sample longTask;

	/** Volatile: given on any thread that carries the observation, read at the end. */
	private volatile @Nullable ObservationConvention<Context> convention;

	RequestObservation(RecordedRequestContext context, ObservationRegistry registry,
			CachingMeterObservationHandler handler, Consumer<RequestObservation> stop, long startTime,
			LongTaskTimer.@Nullable Sample longTask) {
		this.context = context;
		this.registry = registry;
		this.handler = handler;
		this.stop = stop;
		this.startTime = startTime;
		this.longTask = longTask;
	}

	RecordedRequestContext context() {
		return this.context;
	}

	long startTime() {
		return this.startTime;
	}

	LongTaskTimer.@Nullable Sample longTask() {
		return this.longTask;
	}

	/**
	 * Return the convention someone gave this observation during the request, which then
	 * decides its key values at its end, as it would an observation's.
	 * @return the convention, or {@code null}
	 */
	@Nullable ObservationConvention<Context> convention() {
		return this.convention;
	}

	@Override
	public Observation contextualName(@Nullable String contextualName) {
		this.context.setContextualName(contextualName);
		return this;
	}

	@Override
	public Observation parentObservation(@Nullable Observation parentObservation) {
		this.context.setParentObservation(parentObservation);
		return this;
	}

	@Override
	public Observation lowCardinalityKeyValue(KeyValue keyValue) {
		this.context.addLowCardinalityKeyValue(keyValue);
		return this;
	}

	@Override
	public Observation highCardinalityKeyValue(KeyValue keyValue) {
		this.context.addHighCardinalityKeyValue(keyValue);
		return this;
	}

	@Override
	@SuppressWarnings("unchecked")
	public Observation observationConvention(ObservationConvention<?> convention) {
		if (convention.supportsContext(this.context)) {
			this.convention = (ObservationConvention<Context>) convention;
		}
		return this;
	}

	@Override
	public Observation error(Throwable error) {
		this.context.setError(error);
		return this;
	}

	@Override
	public Observation event(Event event) {
		this.handler.onEvent(event, this.context);
		return this;
	}

	@Override
	public Observation start() {
		return this;
	}

	@Override
	public Context getContext() {
		return this.context;
	}

	@Override
	public void stop() {
		this.stop.accept(this);
	}

	@Override
	public ObservationRegistry getObservationRegistry() {
		return this.registry;
	}

	@Override
	public Scope openScope() {
		return SimpleScopes.open(this.registry, this);
	}

	@Override
	public String toString() {
		return "{name=" + this.context.getName() + ", recorded without an observation, context=" + this.context + "}";
	}

}

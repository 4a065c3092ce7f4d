package io.github.leanscrape.recording.reactive;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.RecordedObservation;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.handler.ExceptionHandlingWebHandler;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * The observation of a Spring WebFlux request recorded without Micrometer's
 * ({@link ServerRequestRecordingWebHandler}) and the subscriber that records it
 * ({@link RecordedRequestMono}): what {@code RequestObservation} is to Spring MVC.
 * <p>
 * It is in the Reactor context of all the request runs
 * ({@link ObservationThreadLocalAccessor#KEY}), so work started during the request takes
 * it as parent. It records the request once, at its end, as Spring's adapter would;
 * stopping it records it too.
 *
 * @author leanscrape
 */
// Reactor's Context and ContextView are named in full: Observation's own shadow them.
final class ReactiveRequestObservation extends RecordedObservation<RecordedReactiveRequestContext>
		implements CoreSubscriber<Void>, Subscription {

	private static final AtomicIntegerFieldUpdater<ReactiveRequestObservation> ENDED = AtomicIntegerFieldUpdater
		.newUpdater(ReactiveRequestObservation.class, "ended");

	private final ServerRequestRecordingWebHandler recorder;

	private final CoreSubscriber<? super Void> actual;

	/**
	 * The subscriber's Reactor context with this observation in it, made the first time
	 * anyone asks: most requests' handling never does. Two threads asking at once make
	 * two equal contexts, immutable and safely published (final fields).
	 */
	private reactor.util.context.@Nullable Context reactorContext;

	private @Nullable Subscription upstream;

	/** Once set, the request's end was recorded; written after the start, too. */
	private volatile int ended;

	ReactiveRequestObservation(ServerRequestRecordingWebHandler recorder, RecordedReactiveRequestContext context,
			CoreSubscriber<? super Void> actual) {
		super(context);
		this.recorder = recorder;
		this.actual = actual;
	}

	/**
	 * Start timing the request ({@link #startTiming}) and publish it, with the volatile
	 * write, to whichever thread ends the request.
	 * @param longTaskTimer the {@code .active} long task timer, or {@code null}
	 * @param clock the registry's clock
	 */
	void started(@Nullable LongTaskTimer longTaskTimer, Clock clock) {
		startTiming(longTaskTimer, clock);
		this.ended = 0;
	}

	// The request's signals, as Reactor's tap would give them to a listener. Not tap
	// itself: with context propagation on the class path, tap restores thread locals
	// around every signal, which costs more than the whole recording.

	@Override
	public reactor.util.context.Context currentContext() {
		reactor.util.context.Context context = this.reactorContext;
		if (context == null) {
			context = this.actual.currentContext().put(ObservationThreadLocalAccessor.KEY, this);
			this.reactorContext = context;
		}
		return context;
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		if (Operators.validate(this.upstream, subscription)) {
			this.upstream = subscription;
			this.actual.onSubscribe(this);
		}
	}

	/**
	 * Whether the request's handling has given this subscriber its subscription.
	 * @return {@code true} once subscribed
	 */
	boolean subscribed() {
		return this.upstream != null;
	}

	@Override
	public void onNext(Void value) {
		this.actual.onNext(value);
	}

	@Override
	public void request(long n) {
		Subscription upstream = this.upstream;
		if (upstream != null) {
			upstream.request(n);
		}
	}

	// A failure to record (a meter filter or a convention given during the request that
	// throws) is dropped, as Reactor drops errors it cannot deliver: the signal goes on,
	// so that the response is completed and the handling cancelled as without it.

	@Override
	public void cancel() {
		try {
			if (ENDED.compareAndSet(this, 0, 1)) {
				context().setConnectionAborted(true);
				this.recorder.stop(this, false);
			}
		}
		catch (Throwable ex) {
			dropped(ex);
		}
		finally {
			Subscription upstream = this.upstream;
			if (upstream != null) {
				upstream.cancel();
			}
		}
	}

	@Override
	public void onComplete() {
		try {
			if (ENDED.compareAndSet(this, 0, 1)) {
				takeHandledError();
				end();
			}
		}
		catch (Throwable ex) {
			dropped(ex);
		}
		this.actual.onComplete();
	}

	@Override
	public void onError(Throwable error) {
		try {
			recordError(error);
		}
		catch (Throwable ex) {
			dropped(ex);
		}
		this.actual.onError(error);
	}

	private void dropped(Throwable ex) {
		Exceptions.throwIfFatal(ex);
		Operators.onErrorDropped(ex, currentContext());
	}

	private void recordError(Throwable error) {
		if (ENDED.compareAndSet(this, 0, 1)) {
			ServerHttpResponse response = context().getResponse();
			if (response == null || !response.isCommitted()) {
				// The adapter sets a 500 and completes the request.
				takeHandledError();
			}
			else if (DisconnectedClientHelper.isClientDisconnectedException(error)) {
				// The adapter completes the request, its connection aborted.
				context().setConnectionAborted(true);
				takeHandledError();
			}
			else {
				context().setError(error);
			}
			end();
		}
	}

	private void takeHandledError() {
		Throwable handled = (Throwable) context().getAttributes()
			.get(ExceptionHandlingWebHandler.HANDLED_WEB_EXCEPTION);
		if (handled != null) {
			context().setError(handled);
		}
	}

	private void end() {
		ServerHttpResponse response = context().getResponse();
		if (response == null) {
			return;
		}
		if (response.isCommitted()) {
			this.recorder.stop(this, false);
		}
		else {
			response.beforeCommit(this::recordBeforeCommit);
		}
	}

	private Mono<Void> recordBeforeCommit() {
		this.recorder.stop(this, false);
		return Mono.empty();
	}

	// The observation

	@Override
	protected CachingMeterObservationHandler handler() {
		return this.recorder.handler();
	}

	@Override
	public void stop() {
		this.recorder.stop(this, true);
	}

	@Override
	public ObservationRegistry getObservationRegistry() {
		return this.recorder.observationRegistry();
	}

}

package io.github.leanscrape.recording.reactive;

import java.util.function.Function;

import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoOperator;
import reactor.core.publisher.Operators;

/**
 * The handling of a Spring WebFlux request that {@link ServerRequestRecordingWebHandler}
 * records without Micrometer's observation: each subscription starts a
 * {@link ReactiveRequestObservation}, as each subscription to Spring's adapter starts an
 * observation, and sees the request's signals through it.
 *
 * @author leanscrape
 */
final class RecordedRequestMono extends MonoOperator<Void, Void> {

	private final ServerRequestRecordingWebHandler recorder;

	private final RecordedReactiveRequestContext context;

	RecordedRequestMono(Mono<Void> handled, ServerRequestRecordingWebHandler recorder,
			RecordedReactiveRequestContext context) {
		super(handled);
		this.recorder = recorder;
		this.context = context;
	}

	@Override
	public void subscribe(CoreSubscriber<? super Void> actual) {
		// The observation puts itself in the Reactor context it gives the request. With
		// Reactor's automatic context propagation on, writing that context (unchanged)
		// makes it current around the subscription and every signal, as the adapter's tap
		// makes its observation current; without it, nothing would.
		Mono<? extends Void> source = AutomaticContextPropagation.enabled()
				? this.source.contextWrite(Function.identity()) : this.source;
		ReactiveRequestObservation observation = new ReactiveRequestObservation(this.recorder, this.context, actual);
		try {
			// Started before the request is subscribed to, as the adapter's observation
			// is.
			this.recorder.start(observation);
		}
		catch (Throwable ex) {
			Operators.error(actual, Operators.onOperatorError(ex, actual.currentContext()));
			return;
		}
		try {
			source.subscribe(observation);
		}
		catch (Throwable ex) {
			// Ended as an error, so that its long task and its timer are not left open.
			Throwable error = Operators.onOperatorError(ex, actual.currentContext());
			if (observation.subscribed()) {
				observation.onError(error);
			}
			else {
				Operators.error(observation, error);
			}
		}
	}

}

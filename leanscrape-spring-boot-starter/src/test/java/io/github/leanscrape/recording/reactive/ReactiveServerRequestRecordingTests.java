package io.github.leanscrape.recording.reactive;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ReactiveServerRequestRecording}: what it leaves as Spring built it.
 */
class ReactiveServerRequestRecordingTests {

	private final SimpleMeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final ReactiveServerRequestRecording recording = new ReactiveServerRequestRecording(
			new CachingMeterObservationHandler(this.meterRegistry, 10), this.meterRegistry, true, 10);

	@Test
	void leavesAHandlerThatIsNotSpringsAdapter() {
		HttpHandler decorated = (request, response) -> Mono.empty();
		assertThat(this.recording.apply(decorated)).isSameAs(decorated);
		HttpWebHandlerAdapter subclass = new HttpWebHandlerAdapter((exchange) -> Mono.empty()) {
		};
		assertThat(this.recording.apply(subclass)).isSameAs(subclass);
	}

	@Test
	void knowsEverySettingOfSpringsAdapter() {
		assertThat(ReactiveServerRequestRecording
			.whyNotRewrapped(WebHttpHandlerBuilder.webHandler((exchange) -> Mono.empty())
				.observationRegistry(ObservationRegistry.create())
				.build()))
			.isNull();
	}

	@Test
	void keepsObservationsWithoutTheStartersHandler() {
		HttpHandler built = WebHttpHandlerBuilder.webHandler((exchange) -> Mono.empty())
			.observationRegistry(ObservationRegistry.create())
			.build();
		HttpWebHandlerAdapter rewrapped = (HttpWebHandlerAdapter) this.recording.apply(built);
		assertThat(rewrapped).isNotSameAs(built).isExactlyInstanceOf(HttpWebHandlerAdapter.class);
		assertThat(((ServerRequestRecordingWebHandler) rewrapped.getDelegate()).isBypassingObservations()).isFalse();
		assertThat(rewrapped.getObservationRegistry())
			.isSameAs(((HttpWebHandlerAdapter) built).getObservationRegistry());
	}

	@Test
	void readsWhetherReactorPropagatesItsContextToThreadLocals() {
		assertThat(AutomaticContextPropagation.readable()).isTrue();
		try {
			Hooks.enableAutomaticContextPropagation();
			assertThat(AutomaticContextPropagation.enabled()).isTrue();
			Hooks.disableAutomaticContextPropagation();
			assertThat(AutomaticContextPropagation.enabled()).isFalse();
		}
		finally {
			Hooks.disableAutomaticContextPropagation();
		}
	}

}

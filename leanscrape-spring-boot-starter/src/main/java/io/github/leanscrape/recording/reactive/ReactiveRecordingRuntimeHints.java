package io.github.leanscrape.recording.reactive;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Registers for reflection, in a native image, what Spring WebFlux's request recording
 * reads: whether Reactor propagates context to thread locals
 * ({@link AutomaticContextPropagation}; unread, it is taken as on), and the fields of
 * Spring's HTTP handler adapter, which {@link ReactiveServerRequestRecording} lists to
 * make it again only when it knows every one (unread, the adapter is left as built). Only
 * names: nothing here loads Reactor or Spring WebFlux.
 *
 * @author leanscrape
 */
class ReactiveRecordingRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection()
			.registerType(TypeReference.of(AutomaticContextPropagation.SUPPORT),
					(type) -> type.withField(AutomaticContextPropagation.FIELD));
		hints.reflection()
			.registerType(TypeReference.of(ReactiveServerRequestRecording.ADAPTER), MemberCategory.DECLARED_FIELDS);
	}

}

package io.github.leanscrape.exposition.direct;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Registers for reflection, in a native image, the classes and fields of Micrometer's
 * Prometheus registry and of client_java that the direct path reads
 * ({@link InternalMember}); without them it would send every scrape to the reference path
 * there.
 *
 * @author leanscrape
 */
class DirectRendererRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (InternalMember member : InternalMember.values()) {
			String fieldName = member.fieldName();
			hints.reflection().registerType(TypeReference.of(member.ownerName()), (type) -> {
				if (fieldName != null) {
					type.withField(fieldName);
				}
			});
		}
	}

}

package io.github.leanscrape.recording.reactive;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;

/**
 * Tells whether Reactor's automatic context propagation is on
 * ({@link Hooks#enableAutomaticContextPropagation()},
 * {@code spring.reactor.context-propagation=auto}): then a request's observation must be
 * made current around its subscription and signals. Reactor publishes no way to read the
 * switch, so its field is read through a private lookup, found once; where it cannot be,
 * propagation is taken to be on, which is always right and costs a context write per
 * request ({@link Mono#contextWrite}).
 *
 * @author leanscrape
 */
final class AutomaticContextPropagation {

	/** Reactor's class holding the switch, not public. */
	static final String SUPPORT = "reactor.core.publisher.ContextPropagationSupport";

	/** Reactor's field: whether context is propagated to thread locals. */
	static final String FIELD = "propagateContextToThreadLocals";

	private static final @Nullable VarHandle ENABLED = find();

	private AutomaticContextPropagation() {
	}

	private static @Nullable VarHandle find() {
		try {
			Class<?> type = Class.forName(SUPPORT, false, Hooks.class.getClassLoader());
			MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
			return lookup.findStaticVarHandle(type, FIELD, boolean.class);
		}
		catch (Throwable ex) {
			// Anything but the machine failing leaves the switch unread (a native
			// image's unsupported feature, say).
			if (ex instanceof VirtualMachineError error) {
				throw error;
			}
			return null;
		}
	}

	/**
	 * Return whether Reactor's switch could be read.
	 * @return {@code false} when it is taken to be on
	 */
	static boolean readable() {
		return ENABLED != null;
	}

	/**
	 * Return whether Reactor propagates its context to thread locals now.
	 * @return {@code true} when on, or when the switch cannot be read
	 */
	static boolean enabled() {
		VarHandle enabled = ENABLED;
		return enabled == null || (boolean) enabled.get();
	}

}

package io.github.leanscrape.recording.servlet;

import io.github.leanscrape.recording.DerivedKeyValuesCache;
import io.github.leanscrape.recording.ServerRequestCache;
import io.micrometer.common.KeyValues;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;

/**
 * Spring's {@link DefaultServerRequestObservationConvention} for Spring MVC, whose
 * low-cardinality key values and contextual name are derived once per combination of path
 * pattern, method, status and error class, and afterwards returned from a cache.
 * <p>
 * An observation asks its convention for the key values twice per request (at start and
 * at stop) and for the contextual name once; Spring's convention builds a new
 * {@code KeyValue} for the method, the status (with its {@code Integer.toString}) and the
 * URI each time, copies and sorts the five into a new {@link KeyValues}, and concatenates
 * the contextual name. Those four values decide every key value the convention derives
 * and its contextual name (see {@link ServerRequestCache}), so a cache hit returns what
 * the convention would return, built by the convention itself on the miss. Only the
 * high-cardinality {@code http.url} is derived per request, as it differs per request.
 * <p>
 * This class is final and does not override the convention's per-key methods: a subclass
 * changing one would break the cache's premise. A request without a response or request
 * object, or with a method the convention reports as {@code UNKNOWN} (the contextual name
 * keeps the raw method), is answered by the convention itself. The number of cached
 * combinations is bounded; once full, new combinations are derived per request, as by
 * Spring's convention. Nothing else changes: the observation, its handlers (tracing among
 * them), filters and scopes see the same values.
 *
 * @author leanscrape
 */
public final class CachingServerRequestObservationConvention extends DefaultServerRequestObservationConvention {

	private final DerivedKeyValuesCache cache;

	/**
	 * Create a new instance.
	 * @param name the observation name
	 * @param maxCachedCombinations the most combinations to cache
	 */
	public CachingServerRequestObservationConvention(String name, int maxCachedCombinations) {
		super(name);
		this.cache = new DerivedKeyValuesCache(maxCachedCombinations);
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ServerRequestObservationContext context) {
		DerivedKeyValuesCache.Derived derived = derived(context);
		return (derived != null) ? derived.lowCardinalityKeyValues() : super.getLowCardinalityKeyValues(context);
	}

	@Override
	public @Nullable String getContextualName(ServerRequestObservationContext context) {
		DerivedKeyValuesCache.Derived derived = derived(context);
		return (derived != null) ? derived.contextualName() : super.getContextualName(context);
	}

	/**
	 * Return the number of combinations cached.
	 * @return the number of combinations
	 */
	public int cachedCombinationCount() {
		return this.cache.size();
	}

	private DerivedKeyValuesCache.@Nullable Derived derived(ServerRequestObservationContext context) {
		HttpServletRequest request = context.getCarrier();
		HttpServletResponse response = context.getResponse();
		if (request == null || response == null) {
			return null;
		}
		int method = ServerRequestCache.methodIndex(request.getMethod());
		if (method == ServerRequestCache.UNKNOWN_METHOD) {
			return null;
		}
		String pattern = context.getPathPattern();
		int status = response.getStatus();
		Throwable error = context.getError();
		Class<?> errorType = (error != null) ? error.getClass() : null;
		DerivedKeyValuesCache.Derived cached = this.cache.get(pattern, method, status, errorType);
		if (cached != null || !this.cache.hasRoom()) {
			return cached;
		}
		// Spring's own answers: should the convention throw, so does this, and nothing is
		// cached.
		return this.cache.put(pattern, method, status, errorType, super.getLowCardinalityKeyValues(context),
				super.getContextualName(context));
	}

}

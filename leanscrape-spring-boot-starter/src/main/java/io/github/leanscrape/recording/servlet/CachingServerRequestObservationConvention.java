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
 * pattern, method, status and error class, which decide them all
 * ({@link ServerRequestCache}), then cached; {@code http.url} is derived per request.
 * <p>
 * Final, so that no subclass changes a per-key method under the cache. A request without
 * a request or response, or with an {@code UNKNOWN} method, and every new combination
 * once the bounded cache is full, is answered by the convention itself.
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

package io.github.leanscrape.recording.reactive;

import io.github.leanscrape.recording.DerivedKeyValuesCache;
import io.github.leanscrape.recording.ServerRequestCache;
import io.micrometer.common.KeyValues;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Spring's reactive {@link DefaultServerRequestObservationConvention} for Spring WebFlux,
 * whose low-cardinality key values and contextual name are derived once per combination
 * of path pattern, method, status, connection state and error class, then cached, as
 * {@code CachingServerRequestObservationConvention} does for Spring MVC.
 * <p>
 * The connection state matters: if the client aborted, the outcome is {@code UNKNOWN},
 * and so is an uncommitted response's status. The convention answers what the cache
 * cannot key: no request or response, a method {@code HttpMethod} lacks, a full cache.
 *
 * @author leanscrape
 */
public final class CachingReactiveServerRequestObservationConvention extends DefaultServerRequestObservationConvention {

	/** The status key of a response without a status code. */
	private static final int NO_STATUS = -1;

	/**
	 * Set apart the status keys of a request whose client went away before its response
	 * was committed.
	 */
	private static final int ABORTED_UNCOMMITTED = -4096;

	private final DerivedKeyValuesCache cache;

	/**
	 * Create a new instance.
	 * @param name the observation name
	 * @param maxCachedCombinations the most combinations to cache
	 */
	public CachingReactiveServerRequestObservationConvention(String name, int maxCachedCombinations) {
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

	/**
	 * Return the key of what the convention reads of a request's status: the response's
	 * status code, and whether the client went away, before or after the response was
	 * committed. An aborted request's {@code status} is {@code UNKNOWN} only when the
	 * response was not committed, while its {@code uri} still reads the status code.
	 * @param context the request's context, with a response
	 * @return the key, the status code for a request whose client did not go away
	 */
	static int statusKey(ServerRequestObservationContext context) {
		ServerHttpResponse response = context.getResponse();
		HttpStatusCode statusCode = (response != null) ? response.getStatusCode() : null;
		int status = (statusCode != null) ? statusCode.value() : NO_STATUS;
		if (!context.isConnectionAborted()) {
			return status;
		}
		// Status codes are 100 to 999 (or NO_STATUS): the complement keeps an aborted
		// request's status apart from every other key (-1000 to 0), and still tells its
		// statuses apart (the uri reads it); one whose response was not committed is
		// further apart (-5095 to -4095).
		return (response != null && response.isCommitted()) ? ~status : ABORTED_UNCOMMITTED - status;
	}

	private DerivedKeyValuesCache.@Nullable Derived derived(ServerRequestObservationContext context) {
		ServerHttpRequest request = context.getCarrier();
		ServerHttpResponse response = context.getResponse();
		if (request == null || response == null) {
			return null;
		}
		int method = ServerRequestCache.methodIndex(request.getMethod().name());
		if (method == ServerRequestCache.UNKNOWN_METHOD) {
			return null;
		}
		String pattern = context.getPathPattern();
		int status = statusKey(context);
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

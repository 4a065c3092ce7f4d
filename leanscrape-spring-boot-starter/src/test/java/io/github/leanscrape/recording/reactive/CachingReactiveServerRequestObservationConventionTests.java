package io.github.leanscrape.recording.reactive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CachingReactiveServerRequestObservationConvention}: over every
 * combination of method, status, connection state, path pattern and error below, it
 * answers what Spring's reactive convention answers, on the miss and on every hit.
 */
class CachingReactiveServerRequestObservationConventionTests {

	private static final String[] METHODS = { "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
			"get", "PROPFIND" };

	/** Statuses of each class, and {@code null} for a response without one. */
	private static final Integer[] STATUSES = { null, 100, 200, 201, 204, 299, 301, 302, 304, 399, 400, 401, 404, 405,
			418, 499, 500, 503, 599, 600, 999 };

	private static final String[] PATTERNS = { null, "", "/hello", "/items/{id}", "/items/{id}/parts/{part}" };

	private static final Throwable[] ERRORS = { null, new IllegalStateException("boom"),
			new RuntimeException("anonymous") {
			}, new Nested.IllegalStateException() };

	private final DefaultServerRequestObservationConvention spring = new DefaultServerRequestObservationConvention(
			"test.requests");

	@Test
	void answersAsSpringsConventionOnMissesAndHits() {
		CachingReactiveServerRequestObservationConvention caching = new CachingReactiveServerRequestObservationConvention(
				"test.requests", 100_000);
		assertThat(caching.getName()).isEqualTo(this.spring.getName());
		List<ServerRequestObservationContext> contexts = contexts();
		int hits = 0;
		for (int pass = 0; pass < 3; pass++) {
			for (ServerRequestObservationContext context : contexts) {
				KeyValues expected = this.spring.getLowCardinalityKeyValues(context);
				KeyValues first = caching.getLowCardinalityKeyValues(context);
				KeyValues second = caching.getLowCardinalityKeyValues(context);
				String description = context.getCarrier().getMethod().name() + " "
						+ context.getResponse().getStatusCode() + " " + context.getPathPattern() + " aborted "
						+ context.isConnectionAborted() + " " + context.getError();
				assertThat(first).as(description).isEqualTo(expected);
				assertThat(second).as(description).isEqualTo(expected);
				if (first == second) {
					hits++;
				}
				assertThat(caching.getContextualName(context)).as(description)
					.isEqualTo(this.spring.getContextualName(context));
				assertThat(caching.getHighCardinalityKeyValues(context))
					.isEqualTo(this.spring.getHighCardinalityKeyValues(context));
			}
		}
		// Cached combinations answer with the very key values cached.
		assertThat(hits).isGreaterThan(contexts.size());
		assertThat(caching.cachedCombinationCount()).isPositive();
	}

	@Test
	void anAbortedConnectionHasKeyValuesOfItsOwn() {
		CachingReactiveServerRequestObservationConvention caching = new CachingReactiveServerRequestObservationConvention(
				"test.requests", 100);
		ServerRequestObservationContext completed = context("GET", 404, null, null, false);
		ServerRequestObservationContext aborted = context("GET", 404, null, null, true);
		KeyValues completedKeyValues = caching.getLowCardinalityKeyValues(completed);
		assertThat(caching.getLowCardinalityKeyValues(aborted))
			.isEqualTo(this.spring.getLowCardinalityKeyValues(aborted))
			.isNotEqualTo(completedKeyValues);
		assertThat(caching.cachedCombinationCount()).isEqualTo(2);
	}

	/**
	 * The client went away before and after the response was committed: the convention
	 * reports the status only after.
	 */
	@Test
	void anAbortedConnectionsStatusDependsOnWhetherTheResponseWasCommitted() {
		CachingReactiveServerRequestObservationConvention caching = new CachingReactiveServerRequestObservationConvention(
				"test.requests", 100);
		for (int pass = 0; pass < 2; pass++) {
			ServerRequestObservationContext uncommitted = context("GET", 200, "/stream", null, true);
			ServerRequestObservationContext committed = context("GET", 200, "/stream", null, true);
			committed.getResponse().setComplete().block();
			assertThat(committed.getResponse().isCommitted()).isTrue();
			assertThat(caching.getLowCardinalityKeyValues(committed))
				.isEqualTo(this.spring.getLowCardinalityKeyValues(committed))
				.contains(KeyValue.of("status", "200"));
			assertThat(caching.getLowCardinalityKeyValues(uncommitted))
				.isEqualTo(this.spring.getLowCardinalityKeyValues(uncommitted))
				.contains(KeyValue.of("status", "UNKNOWN"));
		}
		assertThat(caching.cachedCombinationCount()).isEqualTo(2);
	}

	@Test
	void aFullCacheAnswersThroughTheConvention() {
		CachingReactiveServerRequestObservationConvention caching = new CachingReactiveServerRequestObservationConvention(
				"test.requests", 3);
		for (int i = 0; i < 10; i++) {
			ServerRequestObservationContext context = context("GET", 200, "/p" + i, null, false);
			assertThat(caching.getLowCardinalityKeyValues(context))
				.isEqualTo(this.spring.getLowCardinalityKeyValues(context));
			assertThat(caching.getContextualName(context)).isEqualTo(this.spring.getContextualName(context));
		}
		assertThat(caching.cachedCombinationCount()).isEqualTo(3);
	}

	@Test
	void methodsOutsideSpringsConstantsAreNotCachedSinceTheirKeyValuesKeepThem() {
		CachingReactiveServerRequestObservationConvention caching = new CachingReactiveServerRequestObservationConvention(
				"test.requests", 100);
		ServerRequestObservationContext propfind = context("PROPFIND", 207, "/dav", null, false);
		ServerRequestObservationContext mkcol = context("MKCOL", 207, "/dav", null, false);
		assertThat(caching.getLowCardinalityKeyValues(propfind))
			.isEqualTo(this.spring.getLowCardinalityKeyValues(propfind));
		assertThat(caching.getLowCardinalityKeyValues(mkcol)).isEqualTo(this.spring.getLowCardinalityKeyValues(mkcol));
		assertThat(caching.getContextualName(mkcol)).isEqualTo("http mkcol /dav");
		assertThat(caching.cachedCombinationCount()).isZero();
	}

	private static List<ServerRequestObservationContext> contexts() {
		List<ServerRequestObservationContext> contexts = new ArrayList<>();
		for (String method : METHODS) {
			for (Integer status : STATUSES) {
				for (String pattern : PATTERNS) {
					for (Throwable error : ERRORS) {
						contexts.add(context(method, status, pattern, error, false));
						contexts.add(context(method, status, pattern, error, true));
					}
				}
			}
		}
		return contexts;
	}

	private static ServerRequestObservationContext context(String method, Integer status, String pattern,
			Throwable error, boolean aborted) {
		MockServerHttpResponse response = new MockServerHttpResponse();
		if (status != null) {
			response.setStatusCode(HttpStatusCode.valueOf(status));
		}
		ServerRequestObservationContext context = new ServerRequestObservationContext(
				MockServerHttpRequest.method(HttpMethod.valueOf(method), "/some/path").build(), response,
				new HashMap<>());
		context.setPathPattern(pattern);
		context.setError(error);
		context.setConnectionAborted(aborted);
		return context;
	}

	/**
	 * An error class whose simple name is that of another.
	 */
	static final class Nested {

		static final class IllegalStateException extends RuntimeException {

		}

	}

}

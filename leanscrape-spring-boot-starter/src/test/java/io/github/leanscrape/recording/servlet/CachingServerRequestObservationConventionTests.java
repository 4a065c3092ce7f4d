package io.github.leanscrape.recording.servlet;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.common.KeyValues;
import org.junit.jupiter.api.Test;

import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CachingServerRequestObservationConvention}: over every combination of
 * method, status, path pattern and error below, it answers what Spring's convention
 * answers, on the miss and on every hit.
 */
class CachingServerRequestObservationConventionTests {

	private static final String[] METHODS = { "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE",
			"QUERY", "get", "PROPFIND", "" };

	/** Valid statuses of each class, and invalid ones. */
	private static final int[] STATUSES = { 100, 200, 201, 204, 299, 301, 302, 304, 399, 400, 401, 404, 405, 418, 499,
			500, 503, 599, 600, 999, 99, 1000, 0, -1 };

	private static final String[] PATTERNS = { null, "", "/hello", "/items/{id}", "/items/{id}/parts/{part}" };

	private static final Throwable[] ERRORS = { null, new IllegalStateException("boom"),
			new RuntimeException("anonymous") {
			}, new Nested.IllegalStateException() };

	private final DefaultServerRequestObservationConvention spring = new DefaultServerRequestObservationConvention(
			"test.requests");

	@Test
	void answersAsSpringsConventionOnMissesAndHits() {
		CachingServerRequestObservationConvention caching = new CachingServerRequestObservationConvention(
				"test.requests", 100_000);
		assertThat(caching.getName()).isEqualTo(this.spring.getName());
		List<ServerRequestObservationContext> contexts = contexts();
		int hits = 0;
		for (int pass = 0; pass < 3; pass++) {
			for (ServerRequestObservationContext context : contexts) {
				KeyValues expected = this.spring.getLowCardinalityKeyValues(context);
				KeyValues first = caching.getLowCardinalityKeyValues(context);
				KeyValues second = caching.getLowCardinalityKeyValues(context);
				assertThat(first).as(context.getCarrier().getMethod() + " " + context.getResponse().getStatus())
					.isEqualTo(expected);
				assertThat(second).isEqualTo(expected);
				if (first == second) {
					hits++;
				}
				assertThat(caching.getContextualName(context)).isEqualTo(this.spring.getContextualName(context));
				assertThat(caching.getHighCardinalityKeyValues(context))
					.isEqualTo(this.spring.getHighCardinalityKeyValues(context));
			}
		}
		// Cached combinations answer with the very key values cached.
		assertThat(hits).isGreaterThan(contexts.size());
		assertThat(caching.cachedCombinationCount()).isPositive();
	}

	@Test
	void requestsOfOneCombinationShareTheirKeyValuesButNotTheirUrl() {
		CachingServerRequestObservationConvention caching = new CachingServerRequestObservationConvention(
				"test.requests", 100);
		ServerRequestObservationContext seven = context("GET", "/items/7", 200, "/items/{id}", null);
		ServerRequestObservationContext eight = context("GET", "/items/8", 200, "/items/{id}", null);
		assertThat(caching.getLowCardinalityKeyValues(eight)).isSameAs(caching.getLowCardinalityKeyValues(seven));
		assertThat(caching.getHighCardinalityKeyValues(eight)).isEqualTo(this.spring.getHighCardinalityKeyValues(eight))
			.isNotEqualTo(caching.getHighCardinalityKeyValues(seven));
		assertThat(caching.cachedCombinationCount()).isEqualTo(1);
	}

	@Test
	void aFullCacheAnswersThroughTheConvention() {
		CachingServerRequestObservationConvention caching = new CachingServerRequestObservationConvention(
				"test.requests", 3);
		for (int i = 0; i < 10; i++) {
			ServerRequestObservationContext context = context("GET", "/p" + i, 200, "/p" + i, null);
			assertThat(caching.getLowCardinalityKeyValues(context))
				.isEqualTo(this.spring.getLowCardinalityKeyValues(context));
			assertThat(caching.getContextualName(context)).isEqualTo(this.spring.getContextualName(context));
		}
		assertThat(caching.cachedCombinationCount()).isEqualTo(3);
	}

	@Test
	void unknownMethodsAreNotCachedSinceTheContextualNameKeepsThem() {
		CachingServerRequestObservationConvention caching = new CachingServerRequestObservationConvention(
				"test.requests", 100);
		ServerRequestObservationContext propfind = context("PROPFIND", "/dav", 207, "/dav", null);
		ServerRequestObservationContext mkcol = context("MKCOL", "/dav", 207, "/dav", null);
		assertThat(caching.getContextualName(propfind)).isEqualTo("http propfind /dav");
		assertThat(caching.getContextualName(mkcol)).isEqualTo("http mkcol /dav");
		assertThat(caching.cachedCombinationCount()).isZero();
	}

	private static List<ServerRequestObservationContext> contexts() {
		List<ServerRequestObservationContext> contexts = new ArrayList<>();
		for (String method : METHODS) {
			for (int status : STATUSES) {
				for (String pattern : PATTERNS) {
					for (Throwable error : ERRORS) {
						contexts.add(context(method, "/some/path", status, pattern, error));
					}
				}
			}
		}
		return contexts;
	}

	private static ServerRequestObservationContext context(String method, String path, int status, String pattern,
			Throwable error) {
		MockHttpServletResponse response = new MockHttpServletResponse();
		response.setStatus(status);
		ServerRequestObservationContext context = new ServerRequestObservationContext(
				new MockHttpServletRequest(method, path), response);
		context.setPathPattern(pattern);
		context.setError(error);
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

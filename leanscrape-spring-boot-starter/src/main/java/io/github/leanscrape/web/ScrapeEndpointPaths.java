package io.github.leanscrape.web;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;

/**
 * Tells whether a request path, taken within the application (after any context path), is
 * the path of the {@code prometheus} endpoint served by the starter.
 * <p>
 * Both are resolved lazily, on the first request: the glue lives in whichever context
 * serves actuator endpoints, and is created before the endpoints are discovered. When the
 * endpoint is not the starter's (a user's own endpoint bean), nothing matches, so the
 * glue stays out of the way.
 *
 * @author leanscrape
 */
public final class ScrapeEndpointPaths {

	private static final EndpointId PROMETHEUS = EndpointId.of("prometheus");

	private static final String NONE = "";

	private final ObjectProvider<PathMappedEndpoints> pathMappedEndpoints;

	private final ObjectProvider<LeanscrapeScrapeEndpoint> endpoint;

	/** Resolved at the first request. */
	private volatile @Nullable String path;

	/**
	 * Create a new instance.
	 * @param pathMappedEndpoints the web endpoints and their paths
	 * @param endpoint the starter's endpoint, if it serves {@code prometheus}
	 */
	public ScrapeEndpointPaths(ObjectProvider<PathMappedEndpoints> pathMappedEndpoints,
			ObjectProvider<LeanscrapeScrapeEndpoint> endpoint) {
		this.pathMappedEndpoints = pathMappedEndpoints;
		this.endpoint = endpoint;
	}

	/**
	 * Return whether a path is the endpoint's, with or without a trailing slash.
	 * @param pathWithinApplication the request path after the context path
	 * @return {@code true} for the endpoint's path
	 */
	public boolean matches(String pathWithinApplication) {
		String endpointPath = endpointPath();
		if (endpointPath.isEmpty() || !pathWithinApplication.startsWith(endpointPath)) {
			return false;
		}
		int extra = pathWithinApplication.length() - endpointPath.length();
		return extra == 0 || (extra == 1 && pathWithinApplication.charAt(endpointPath.length()) == '/');
	}

	private String endpointPath() {
		String resolved = this.path;
		if (resolved == null) {
			resolved = resolvePath();
			this.path = resolved;
		}
		return resolved;
	}

	private String resolvePath() {
		PathMappedEndpoints endpoints = this.pathMappedEndpoints.getIfAvailable();
		if (endpoints == null || this.endpoint.getIfAvailable() == null) {
			return NONE;
		}
		String resolved = endpoints.getPath(PROMETHEUS);
		return (resolved != null) ? resolved : NONE;
	}

}

package io.github.leanscrape.web;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;

/**
 * Tells whether a request path, taken within the application (after any context path),
 * is the {@code prometheus} endpoint's.
 *
 * @author leanscrape
 */
public final class ScrapeEndpointPaths {

	private static final EndpointId PROMETHEUS = EndpointId.of("prometheus");

	private final PathMappedEndpoints pathMappedEndpoints;

	private volatile String path;

	/**
	 * Create a new instance.
	 * @param pathMappedEndpoints the web endpoints and their paths
	 */
	public ScrapeEndpointPaths(PathMappedEndpoints pathMappedEndpoints) {
		this.pathMappedEndpoints = pathMappedEndpoints;
	}

	/**
	 * Return whether a path is the endpoint's, with or without a trailing slash.
	 * @param pathWithinApplication the request path after the context path
	 * @return {@code true} for the endpoint's path
	 */
	public boolean matches(String pathWithinApplication) {
		String endpointPath = endpointPath();
		if (endpointPath == null || !pathWithinApplication.startsWith(endpointPath)) {
			return false;
		}
		int extra = pathWithinApplication.length() - endpointPath.length();
		return extra == 0 || (extra == 1 && pathWithinApplication.charAt(endpointPath.length()) == '/');
	}

	private String endpointPath() {
		String resolved = this.path;
		if (resolved == null) {
			// Resolved lazily: endpoints are discovered after the filters are created.
			resolved = this.pathMappedEndpoints.getPath(PROMETHEUS);
			this.path = resolved;
		}
		return resolved;
	}

}

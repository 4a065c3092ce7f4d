package io.github.leanscrape.web.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.leanscrape.web.FormatNegotiator;
import io.github.leanscrape.web.NameParameters;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Negotiates the scrape format with q-values, which Spring Boot's own choice ignores, and
 * hands the choice to the endpoint as an {@code Accept} header naming just that format. A
 * header that rules every format out is answered 406 Not Acceptable; one it cannot parse
 * is passed on untouched. Ordered after Spring Security's filter chain.
 * <p>
 * It also reads {@code name[]} as {@code includedNames} (see {@link NameParameters}): the
 * endpoint sees parameters and a query string with {@code includedNames} only.
 *
 * @author leanscrape
 */
public final class ScrapeNegotiationFilter extends OncePerRequestFilter implements Ordered {

	/**
	 * The order of this filter: after Spring Security's ({@code -100}).
	 */
	public static final int ORDER = Ordered.LOWEST_PRECEDENCE - 100;

	private final ScrapeEndpointPaths paths;

	/**
	 * Create a new filter.
	 * @param paths where the endpoint is
	 */
	public ScrapeNegotiationFilter(ScrapeEndpointPaths paths) {
		this.paths = paths;
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String contextPath = request.getContextPath();
		String path = (contextPath != null && uri.startsWith(contextPath)) ? uri.substring(contextPath.length()) : uri;
		return !this.paths.matches(path);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		List<String> accept = Collections.list(request.getHeaders(HttpHeaders.ACCEPT));
		FormatNegotiator.Result result = FormatNegotiator.negotiate(accept);
		if (result.notAcceptable()) {
			response.sendError(HttpServletResponse.SC_NOT_ACCEPTABLE);
			return;
		}
		HttpServletRequest filtered = new NegotiatedRequest(request, result.format());
		String[] names = request.getParameterValues(NameParameters.NAME);
		if (names != null) {
			filtered = new IncludedNamesRequest(filtered, names);
		}
		chain.doFilter(filtered, response);
	}

	/**
	 * A request whose {@code Accept} header names the negotiated format only, and that
	 * has no {@code Range} or {@code If-Range} header: Spring Boot's endpoint answers a
	 * range request with the whole body, and so does the starter's.
	 */
	private static final class NegotiatedRequest extends HttpServletRequestWrapper {

		private final @Nullable String accept;

		NegotiatedRequest(HttpServletRequest request, @Nullable PrometheusOutputFormat format) {
			super(request);
			this.accept = (format != null) ? format.getProducedMimeType().toString() : null;
		}

		@Override
		public @Nullable String getHeader(String name) {
			if (isRange(name)) {
				return null;
			}
			return (this.accept != null && HttpHeaders.ACCEPT.equalsIgnoreCase(name)) ? this.accept
					: super.getHeader(name);
		}

		@Override
		public Enumeration<String> getHeaders(String name) {
			if (isRange(name)) {
				return Collections.emptyEnumeration();
			}
			return (this.accept != null && HttpHeaders.ACCEPT.equalsIgnoreCase(name))
					? Collections.enumeration(List.of(this.accept)) : super.getHeaders(name);
		}

		@Override
		public Enumeration<String> getHeaderNames() {
			List<String> names = new ArrayList<>();
			for (Enumeration<String> all = super.getHeaderNames(); all.hasMoreElements();) {
				String name = all.nextElement();
				if (!isRange(name)) {
					names.add(name);
				}
			}
			return Collections.enumeration(names);
		}

		private static boolean isRange(String name) {
			return HttpHeaders.RANGE.equalsIgnoreCase(name) || HttpHeaders.IF_RANGE.equalsIgnoreCase(name);
		}

	}

	/**
	 * A request whose {@code name[]} parameters became {@code includedNames}.
	 */
	private static final class IncludedNamesRequest extends HttpServletRequestWrapper {

		private final Map<String, String[]> parameters;

		private final String queryString;

		IncludedNamesRequest(HttpServletRequest request, String[] names) {
			super(request);
			String[] included = request.getParameterValues(NameParameters.INCLUDED_NAMES);
			List<String> includedNames = NameParameters
				.includedNames((included != null) ? Arrays.asList(included) : null, Arrays.asList(names));
			Map<String, String[]> parameters = new LinkedHashMap<>(request.getParameterMap());
			parameters.remove(NameParameters.NAME);
			// No name at all is an empty includedNames, which Spring Boot reads as the
			// empty set: one value, as it would have come from the query string.
			parameters.put(NameParameters.INCLUDED_NAMES,
					includedNames.isEmpty() ? new String[] { "" } : includedNames.toArray(new String[0]));
			this.parameters = Collections.unmodifiableMap(parameters);
			this.queryString = NameParameters.rewriteQuery(request.getQueryString(), includedNames);
		}

		@Override
		public @Nullable String getParameter(String name) {
			String[] values = this.parameters.get(name);
			return (values != null && values.length > 0) ? values[0] : null;
		}

		@Override
		public Map<String, String[]> getParameterMap() {
			return this.parameters;
		}

		@Override
		public Enumeration<String> getParameterNames() {
			return Collections.enumeration(this.parameters.keySet());
		}

		@Override
		public String @Nullable [] getParameterValues(String name) {
			String[] values = this.parameters.get(name);
			return (values != null) ? values.clone() : null;
		}

		@Override
		public String getQueryString() {
			return this.queryString;
		}

	}

}

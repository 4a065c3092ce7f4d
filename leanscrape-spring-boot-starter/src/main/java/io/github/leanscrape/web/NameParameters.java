package io.github.leanscrape.web;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The {@code name[]} query parameter of Prometheus's own client libraries, read as Spring
 * Boot's {@code includedNames}: {@code ?name[]=a&name[]=b} scrapes what
 * {@code ?includedNames=a,b} scrapes. With both parameters, the endpoint gets the union.
 * {@code includedNames} keeps Spring Boot's meaning (one value is a comma-separated list,
 * several values are names each); each {@code name[]} value is one name.
 *
 * @author leanscrape
 */
public final class NameParameters {

	/**
	 * The query parameter of Prometheus's client libraries, one name per value.
	 */
	public static final String NAME = "name[]";

	/**
	 * The query parameter of Spring Boot's endpoint operation.
	 */
	public static final String INCLUDED_NAMES = "includedNames";

	private NameParameters() {
	}

	/**
	 * Return the names the endpoint should include: those of {@code includedNames}, read
	 * as Spring Boot reads them, then those of {@code name[]}, without duplicates.
	 * @param includedNames the values of {@code includedNames}, or {@code null}
	 * @param names the values of {@code name[]}
	 * @return the names, in order of first appearance
	 */
	public static List<String> includedNames(@Nullable Collection<String> includedNames, Collection<String> names) {
		Set<String> union = new LinkedHashSet<>();
		if (includedNames != null) {
			if (includedNames.size() == 1) {
				// One value is a comma-separated list that Spring Boot's conversion
				// splits and trims; "" is the empty list.
				String list = includedNames.iterator().next();
				int start = 0;
				while (!list.isEmpty() && start <= list.length()) {
					int end = list.indexOf(',', start);
					if (end < 0) {
						end = list.length();
					}
					union.add(list.substring(start, end).trim());
					start = end + 1;
				}
			}
			else {
				union.addAll(includedNames);
			}
		}
		union.addAll(names);
		return new ArrayList<>(union);
	}

	/**
	 * Return a raw (encoded) query string without {@code name[]} and
	 * {@code includedNames}, followed by one {@code includedNames} parameter per name.
	 * Every other parameter is kept as it was sent. No name gives an empty
	 * {@code includedNames}, which includes nothing.
	 * @param rawQuery the raw query string of the request, or {@code null}
	 * @param includedNames the names to include
	 * @return the new raw query string
	 */
	public static String rewriteQuery(@Nullable String rawQuery, List<String> includedNames) {
		StringBuilder query = new StringBuilder();
		if (rawQuery != null) {
			int start = 0;
			int length = rawQuery.length();
			while (start < length) {
				int end = rawQuery.indexOf('&', start);
				if (end < 0) {
					end = length;
				}
				if (end > start && !isNameParameter(rawQuery, start, end)) {
					append(query, rawQuery.substring(start, end));
				}
				start = end + 1;
			}
		}
		if (includedNames.isEmpty()) {
			append(query, INCLUDED_NAMES + "=");
		}
		for (String name : includedNames) {
			append(query, INCLUDED_NAMES + "=" + URLEncoder.encode(name, StandardCharsets.UTF_8));
		}
		return query.toString();
	}

	private static boolean isNameParameter(String rawQuery, int start, int end) {
		int equals = rawQuery.indexOf('=', start);
		String rawName = rawQuery.substring(start, (equals < 0 || equals > end) ? end : equals);
		String name;
		try {
			name = URLDecoder.decode(rawName, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			// A malformed escape: not one of ours, keep it as it was sent.
			return false;
		}
		return NAME.equals(name) || INCLUDED_NAMES.equals(name);
	}

	private static void append(StringBuilder query, String parameter) {
		if (!query.isEmpty()) {
			query.append('&');
		}
		query.append(parameter);
	}

}

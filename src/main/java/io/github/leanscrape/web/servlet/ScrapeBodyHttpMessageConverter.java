package io.github.leanscrape.web.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

import io.github.leanscrape.exposition.ScrapeBody;
import io.github.leanscrape.exposition.Scraper;
import io.github.leanscrape.web.AcceptEncoding;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Writes a {@link ScrapeBody} chunk by chunk to the servlet response, gzip-compressed
 * when the request accepts gzip. The body's own reference is released when the request
 * completes (see the endpoint); a compressed copy is released here once written.
 *
 * @author leanscrape
 */
public final class ScrapeBodyHttpMessageConverter implements HttpMessageConverter<ScrapeBody> {

	private final ObjectProvider<Scraper> scraper;

	/**
	 * Create a new converter.
	 * @param scraper the scraper whose bodies it writes, looked up when the first body is
	 * written
	 */
	public ScrapeBodyHttpMessageConverter(ObjectProvider<Scraper> scraper) {
		this.scraper = scraper;
	}

	@Override
	public boolean canRead(Class<?> clazz, @Nullable MediaType mediaType) {
		return false;
	}

	@Override
	public boolean canWrite(Class<?> clazz, @Nullable MediaType mediaType) {
		return ScrapeBody.class.isAssignableFrom(clazz);
	}

	@Override
	public List<MediaType> getSupportedMediaTypes() {
		return List.of(MediaType.ALL);
	}

	@Override
	public ScrapeBody read(Class<? extends ScrapeBody> clazz, HttpInputMessage inputMessage) {
		throw new HttpMessageNotReadableException("Scrape bodies are written only", inputMessage);
	}

	@Override
	public void write(ScrapeBody body, @Nullable MediaType contentType, HttpOutputMessage outputMessage)
			throws IOException {
		HttpHeaders headers = outputMessage.getHeaders();
		if (headers.getContentType() == null && contentType != null && contentType.isConcrete()) {
			headers.setContentType(contentType);
		}
		Scraper scraper = this.scraper.getObject();
		if (!scraper.canCompress()) {
			write(body, headers, outputMessage);
			return;
		}
		headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
		if (!AcceptEncoding.acceptsGzip(currentRequestAcceptEncoding())) {
			write(body, headers, outputMessage);
			return;
		}
		ScrapeBody compressed = scraper.gzip(body);
		try {
			headers.set(HttpHeaders.CONTENT_ENCODING, AcceptEncoding.GZIP);
			write(compressed, headers, outputMessage);
		}
		finally {
			compressed.release();
		}
	}

	private static void write(ScrapeBody body, HttpHeaders headers, HttpOutputMessage outputMessage)
			throws IOException {
		headers.setContentLength(body.length());
		OutputStream out = outputMessage.getBody();
		body.writeTo(out);
		out.flush();
	}

	private static @Nullable List<String> currentRequestAcceptEncoding() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		if (attributes instanceof ServletRequestAttributes servletAttributes) {
			HttpServletRequest request = servletAttributes.getRequest();
			return java.util.Collections.list(request.getHeaders(HttpHeaders.ACCEPT_ENCODING));
		}
		return null;
	}

}

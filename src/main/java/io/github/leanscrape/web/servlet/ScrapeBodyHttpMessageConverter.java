package io.github.leanscrape.web.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.List;

import io.github.leanscrape.endpoint.PendingScrape;
import io.github.leanscrape.endpoint.ScrapeTimeouts;
import io.github.leanscrape.exposition.ScrapeBody;
import io.github.leanscrape.web.AcceptEncoding;
import io.github.leanscrape.web.ScrapeResponder;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.HttpOutputMessage;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/**
 * Serves a {@link PendingScrape} on the servlet stack: reads the scrape timeout and the
 * accepted encodings from the request, and writes the pooled chunks straight to the
 * response. The scrape itself is released when the request completes (see the endpoint).
 *
 * @author leanscrape
 */
public final class ScrapeBodyHttpMessageConverter implements HttpMessageConverter<PendingScrape> {

	private final ObjectProvider<ScrapeResponder> responder;

	/**
	 * Create a new converter.
	 * @param responder the responder, looked up when the first scrape is written
	 */
	public ScrapeBodyHttpMessageConverter(ObjectProvider<ScrapeResponder> responder) {
		this.responder = responder;
	}

	@Override
	public boolean canRead(Class<?> clazz, @Nullable MediaType mediaType) {
		return false;
	}

	@Override
	public boolean canWrite(Class<?> clazz, @Nullable MediaType mediaType) {
		return PendingScrape.class.isAssignableFrom(clazz);
	}

	@Override
	public List<MediaType> getSupportedMediaTypes() {
		return List.of(MediaType.ALL);
	}

	@Override
	public PendingScrape read(Class<? extends PendingScrape> clazz, HttpInputMessage inputMessage) {
		throw new HttpMessageNotReadableException("Scrapes are written only", inputMessage);
	}

	@Override
	public void write(PendingScrape pending, @Nullable MediaType contentType, HttpOutputMessage outputMessage)
			throws IOException {
		ScrapeResponder responder = this.responder.getObject();
		HttpServletRequest request = currentRequest();
		List<String> acceptEncoding = (request != null)
				? Collections.list(request.getHeaders(HttpHeaders.ACCEPT_ENCODING)) : null;
		String timeout = (request != null) ? request.getHeader(ScrapeTimeouts.HEADER) : null;
		ScrapeResponder.Response response = responder.respond(pending, acceptEncoding, timeout);
		boolean clientGone = false;
		try {
			write(response, contentType, outputMessage, responder.compresses());
		}
		catch (IOException ex) {
			clientGone = true;
			throw ex;
		}
		finally {
			responder.finish(response, clientGone);
		}
	}

	private static void write(ScrapeResponder.Response response, @Nullable MediaType contentType,
			HttpOutputMessage outputMessage, boolean compresses) throws IOException {
		HttpHeaders headers = outputMessage.getHeaders();
		ScrapeBody body = response.body();
		byte[] message = response.message();
		if (body == null && message != null) {
			if (outputMessage instanceof ServerHttpResponse serverResponse) {
				serverResponse.setStatusCode(HttpStatusCode.valueOf(response.status()));
			}
			headers.setContentType(MediaType.TEXT_PLAIN);
			headers.setContentLength(message.length);
			OutputStream out = outputMessage.getBody();
			out.write(message);
			out.flush();
			return;
		}
		if (headers.getContentType() == null && contentType != null && contentType.isConcrete()) {
			headers.setContentType(contentType);
		}
		if (compresses) {
			headers.add(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
		}
		if (response.gzip()) {
			headers.set(HttpHeaders.CONTENT_ENCODING, AcceptEncoding.GZIP);
		}
		if (body != null) {
			headers.setContentLength(body.length());
			OutputStream out = outputMessage.getBody();
			body.writeTo(out);
			out.flush();
		}
	}

	private static @Nullable HttpServletRequest currentRequest() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes instanceof ServletRequestAttributes servletAttributes) ? servletAttributes.getRequest()
				: null;
	}

}

package io.github.leanscrape.web.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.List;

import io.github.leanscrape.endpoint.PendingScrapeResource;
import io.github.leanscrape.exposition.ContentCoding;
import io.github.leanscrape.exposition.PooledBody;
import io.github.leanscrape.serve.Deadlines;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.serve.ScrapeResponse;
import io.github.leanscrape.web.AcceptEncoding;
import io.github.leanscrape.web.ScrapeResponseHeaders;
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
 * Serves the endpoint's pending scrape on the servlet stack: reads the scrape timeout and
 * the accepted encodings from the request, writes the pooled chunks straight to the
 * response, and hands the response back to the responder, which records it and releases
 * the scrape, also when writing failed because the client went away.
 *
 * @author leanscrape
 */
public final class ScrapeBodyHttpMessageConverter implements HttpMessageConverter<PendingScrapeResource> {

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
		return PendingScrapeResource.class.isAssignableFrom(clazz);
	}

	@Override
	public List<MediaType> getSupportedMediaTypes() {
		return List.of(MediaType.ALL);
	}

	@Override
	public PendingScrapeResource read(Class<? extends PendingScrapeResource> clazz, HttpInputMessage inputMessage) {
		throw new HttpMessageNotReadableException("Scrapes are written only", inputMessage);
	}

	@Override
	public void write(PendingScrapeResource resource, @Nullable MediaType contentType, HttpOutputMessage outputMessage)
			throws IOException {
		ScrapeResponder responder = this.responder.getObject();
		HttpServletRequest request = currentRequest();
		ContentCoding coding = (request != null) ? AcceptEncoding
			.choose(Collections.list(request.getHeaders(HttpHeaders.ACCEPT_ENCODING)), responder.codings()) : null;
		String timeout = (request != null) ? request.getHeader(Deadlines.HEADER) : null;
		ScrapeResponse response = responder.respond(resource.pending(), coding, timeout);
		boolean clientGone = false;
		try {
			ScrapeResponseHeaders.apply(response, outputMessage.getHeaders(), contentType,
					!responder.codings().isEmpty());
			write(response, outputMessage);
		}
		catch (IOException ex) {
			clientGone = true;
			throw ex;
		}
		finally {
			responder.finish(response, clientGone);
		}
	}

	private static void write(ScrapeResponse response, HttpOutputMessage outputMessage) throws IOException {
		byte[] message = response.message();
		if (message != null && outputMessage instanceof ServerHttpResponse serverResponse) {
			serverResponse.setStatusCode(HttpStatusCode.valueOf(response.status()));
		}
		PooledBody body = response.body();
		if (message == null && body == null) {
			return;
		}
		OutputStream out = outputMessage.getBody();
		if (message != null) {
			out.write(message);
		}
		else if (body != null) {
			body.writeTo(out);
		}
		out.flush();
	}

	private static @Nullable HttpServletRequest currentRequest() {
		RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
		return (attributes instanceof ServletRequestAttributes servletAttributes) ? servletAttributes.getRequest()
				: null;
	}

}

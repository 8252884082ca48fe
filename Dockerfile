# navarch in a container: a static binary on a minimal base, run as a non-root user, its
# database in the volume /data. Configuration by file (/data/navarch.json by default) and
# environment (NAVARCH_IMAP_PASSWORD, NAVARCH_SMTP_PASSWORD). See docs/deploy/README.md.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /navarch ./cmd/navarch && mkdir /data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /navarch /usr/local/bin/navarch
# /data belongs to nonroot (uid 65532), so that a new named volume, which takes the image
# directory's owner, is writable by the daemon.
COPY --from=build --chown=65532:65532 /data /data
USER nonroot:nonroot
WORKDIR /data
VOLUME /data
# The daemon touches DATABASE.alive about once a minute; navarch health checks its age.
HEALTHCHECK --interval=1m --timeout=10s --start-period=2m \
	CMD ["/usr/local/bin/navarch", "health", "-config", "/data/navarch.json"]
ENTRYPOINT ["/usr/local/bin/navarch"]
CMD ["serve", "-config", "/data/navarch.json"]

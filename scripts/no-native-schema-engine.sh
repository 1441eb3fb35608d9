#!/bin/sh
echo "The native Prisma schema engine is not used in this project: run npm run db:migrate / db:migration:create" >&2
exit 1

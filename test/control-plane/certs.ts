/**
 * @module The test cluster's credentials, made at start with openssl: a CA, the API server's serving certificate for
 * 127.0.0.1, client certificates (the admin in system:masters, the controller manager by its bootstrap name) and the
 * service-account signing key pair.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** ClusterCerts are the files made under one directory. */
export interface ClusterCerts {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  controllerManagerCert: string;
  controllerManagerKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

const DAYS = '7';

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** ecKey writes a P-256 private key. */
function ecKey(dir: string, file: string): void {
  openssl(dir, 'genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file);
}

/** signed writes name.crt, signed by the CA, for subject and extensions (openssl x509 -extfile lines). */
function signed(dir: string, name: string, subject: string, extensions: string[]): void {
  ecKey(dir, `${name}.key`);
  openssl(dir, 'req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`);
  writeFileSync(join(dir, `${name}.ext`), `${extensions.join('\n')}\n`);
  openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    DAYS,
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  );
}

/** makeCerts writes every credential of a test cluster into dir (about 0.1 s). */
export function makeCerts(dir: string): ClusterCerts {
  ecKey(dir, 'ca.key');
  openssl(dir, 'req', '-x509', '-new', '-key', 'ca.key', '-subj', '/CN=mdw-test-ca', '-days', DAYS, '-out', 'ca.crt');
  const client = ['extendedKeyUsage=clientAuth', 'keyUsage=critical,digitalSignature'];
  signed(dir, 'apiserver', '/CN=kube-apiserver', [
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc',
    'extendedKeyUsage=serverAuth',
    'keyUsage=critical,digitalSignature,keyEncipherment',
  ]);
  signed(dir, 'admin', '/O=system:masters/CN=mdw-test-admin', client);
  signed(dir, 'controller-manager', '/CN=system:kube-controller-manager', client);
  ecKey(dir, 'sa.key');
  openssl(dir, 'pkey', '-in', 'sa.key', '-pubout', '-out', 'sa.pub');
  const at = (f: string) => join(dir, f);
  return {
    caCert: at('ca.crt'),
    caKey: at('ca.key'),
    serverCert: at('apiserver.crt'),
    serverKey: at('apiserver.key'),
    adminCert: at('admin.crt'),
    adminKey: at('admin.key'),
    controllerManagerCert: at('controller-manager.crt'),
    controllerManagerKey: at('controller-manager.key'),
    serviceAccountKey: at('sa.key'),
    serviceAccountPub: at('sa.pub'),
  };
}
